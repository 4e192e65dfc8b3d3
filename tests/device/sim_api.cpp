// sim_api.cpp - checks the host simulation itself: core identities, cross-core flags, SyncAll,
// the cycle clock. Prints TAP-style lines; exits 1 on any failure. `sim_api deadlock` runs a
// kernel whose AIC waits for a flag only one AIV set (twice): it must abort, not hang.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "kernel_operator.h"

namespace {

int failures = 0;

void report(bool ok, const std::string &name, const std::string &why)
{
    std::printf("%s - %s\n", ok ? "ok" : "not ok", name.c_str());
    if (!ok) {
        std::printf("# %s\n", why.c_str());
        failures++;
    }
}

using Id = std::tuple<int32_t, int64_t, int64_t, int64_t, int64_t>;
std::mutex g_lock;
std::set<Id> g_seen;
std::atomic<int> g_count{0};
std::atomic<int> g_bad{0};

void record_identity()
{
    std::lock_guard<std::mutex> lk(g_lock);
    g_seen.insert(Id{g_coreType, AscendC::GetBlockIdx(), AscendC::GetBlockNum(),
                     AscendC::GetSubBlockIdx(), AscendC::GetSubBlockNum()});
    g_count++;
}

// AIC -> both AIV, AIV -> AIC (each), AIV0 -> AIV1 (mode 1), in a ping-pong of 3 rounds.
void flag_kernel()
{
    for (int round = 0; round < 3; round++) {
        if ASCEND_IS_AIV {
            AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(1);
            AscendC::CrossCoreWaitFlag(2);
            if (AscendC::GetSubBlockIdx() == 0) {
                AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(3);
            } else {
                AscendC::CrossCoreWaitFlag(3);
            }
        }
        if ASCEND_IS_AIC {
            AscendC::CrossCoreWaitFlag(1);
            AscendC::CrossCoreSetFlag<2, PIPE_FIX>(2);
        }
    }
}

void sync_kernel()
{
    g_count++;
    AscendC::SyncAll<false>();
    if (g_count.load() != 9) {
        g_bad++;
    }
}

void deadlock_kernel()
{
    if ASCEND_IS_AIV {
        if (AscendC::GetSubBlockIdx() == 0) {
            AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(5);
            AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(5);
        }
    }
    if ASCEND_IS_AIC {
        AscendC::CrossCoreWaitFlag(5);
    }
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1 && !std::strcmp(argv[1], "deadlock")) {
        sim_launch(deadlock_kernel, 1);
        std::printf("deadlock kernel finished\n");
        return 0;
    }

    sim_launch(record_identity, 3);
    std::set<Id> want;
    for (int64_t b = 0; b < 3; b++) {
        want.insert(Id{AscendC::AIC, b, 3, 0, 2});
        want.insert(Id{AscendC::AIV, 2 * b, 3, 0, 2});
        want.insert(Id{AscendC::AIV, 2 * b + 1, 3, 1, 2});
    }
    report(g_seen == want && g_count == 9, "1C2V launch: 1 AIC + 2 AIV per block, hardware numbering",
           std::to_string(g_seen.size()) + " distinct identities of " + std::to_string(g_count.load()));

    g_seen.clear();
    g_count = 0;
    sim_launch_mode(sim::LaunchMode::AivOnly, record_identity, 4);
    want.clear();
    for (int64_t b = 0; b < 4; b++) {
        want.insert(Id{AscendC::AIV, b, 4, 0, 1});
    }
    report(g_seen == want, "vector-only launch: one AIV per block", "identities differ");

    sim::reset_stats();
    int rc = sim_launch(flag_kernel, 2);
    sim::Stats st = sim::stats();
    report(rc == 0 && st.flagSets == 2 * 3 * 4 && st.flagWaits == 2 * 3 * 4,
           "cross-core flags: AIC waits for each AIV, AIV for its AIC, AIV for its peer",
           "sets " + std::to_string(st.flagSets) + " waits " + std::to_string(st.flagWaits));

    g_count = 0;
    g_bad = 0;
    sim_launch(sync_kernel, 3);
    report(g_bad == 0, "SyncAll waits for every core of the launch",
           std::to_string(g_bad.load()) + " cores passed early");

    report(sim_launch(record_identity, 0) == -1, "block_dim 0 is refused", "accepted");

    // Clock: default 50 MHz unless configured; rate changes scale the count.
    sim::set_cycle_rate(50000000);
    int64_t c0 = sim::system_cycle();
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    int64_t c1 = sim::system_cycle();
    sim::set_cycle_rate(1000000000);
    int64_t d0 = sim::system_cycle();
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
    int64_t d1 = sim::system_cycle();
    sim::set_cycle_rate(50000000);
    bool slow = c1 - c0 >= 40 * 50000 && c1 - c0 < 40 * 50000 * 20;
    bool fast = d1 - d0 >= 40 * 1000000 && d1 - d0 < 40LL * 1000000 * 20;
    report(slow && fast, "GetSystemCycle counts at the configured rate (50 MHz, 1 GHz)",
           "40 ms = " + std::to_string(c1 - c0) + " cycles at 50 MHz, " + std::to_string(d1 - d0) + " at 1 GHz");

    std::atomic<int> mono{1};
    sim_launch([&mono]() {
        int64_t prev = AscendC::GetSystemCycle();
        for (int i = 0; i < 10000; i++) {
            int64_t c = AscendC::GetSystemCycle();
            if (c < prev) mono = 0;
            prev = c;
        }
    }, 2);
    report(mono == 1, "GetSystemCycle is monotonic on every core", "went backwards");
    return failures ? 1 : 0;
}
