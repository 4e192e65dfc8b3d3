// sim_runtime.cpp - the host simulation's launcher, clock, cross-core flags and counters.
#include "sim_runtime.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "kernel_operator.h"

thread_local int32_t g_coreType = 0;

namespace sim {
namespace {

constexpr int kFlagIds = 16;
constexpr uint32_t kMaxBlockDim = 4096;

thread_local CoreIdentity t_core = {0, 0, 0, 0, 0, 0};

std::atomic<uint64_t> g_cycleHz{0};
std::atomic<uint64_t> g_dcci{0}, g_barriers{0}, g_sets{0}, g_waits{0}, g_launches{0};

const std::chrono::steady_clock::time_point g_epoch = std::chrono::steady_clock::now();

// Flag counters of one 1C2V group, and the launch-wide state.
struct Group {
    std::mutex m;
    std::condition_variable cv;
    int toAic[2][kFlagIds] = {}; // arrivals from each AIV sub-block
    int toAiv[2][kFlagIds] = {};
};

struct Launch {
    uint32_t blockDim = 0;
    uint32_t cores = 0;
    std::vector<std::unique_ptr<Group>> groups;
    std::mutex m;
    std::condition_variable cv;
    uint32_t arrived = 0;
    uint64_t generation = 0;
    int mode0[kFlagIds] = {};
};

Launch *g_launch = nullptr; // set for the duration of run_cores
std::mutex g_launchLock;    // one launch at a time per process

std::chrono::milliseconds wait_limit()
{
    const char *s = std::getenv("AUTOTRACE_SIM_WAIT_MS");
    long ms = s != nullptr ? std::atol(s) : 0;
    return std::chrono::milliseconds(ms > 0 ? ms : 20000);
}

[[noreturn]] void deadlock(const char *what, int id)
{
    std::fprintf(stderr,
                 "sim: %s core (block %lld, sub-block %lld) waited too long for %s %d "
                 "(deadlock? set AUTOTRACE_SIM_WAIT_MS to wait longer)\n",
                 t_core.coreType == AscendC::AIC ? "AIC" : "AIV", (long long)t_core.blockIdx,
                 (long long)t_core.subBlockIdx, what, id);
    std::abort();
}

Launch &launch()
{
    if (g_launch == nullptr) {
        std::fprintf(stderr, "sim: kernel API called outside sim_launch\n");
        std::abort();
    }
    return *g_launch;
}

void check_flag_id(uint16_t flagId)
{
    if (flagId >= kFlagIds) {
        std::fprintf(stderr, "sim: cross-core flag id %u out of range 0..%d\n", flagId,
                     kFlagIds - 1);
        std::abort();
    }
}

} // namespace

const CoreIdentity &current_core() { return t_core; }

void set_cycle_rate(uint64_t hz) { g_cycleHz = hz; }

uint64_t cycle_rate()
{
    uint64_t hz = g_cycleHz.load();
    if (hz == 0) {
        const char *s = std::getenv("AUTOTRACE_SIM_CYCLE_HZ");
        unsigned long long v = s != nullptr ? std::strtoull(s, nullptr, 10) : 0;
        hz = v > 0 ? v : 50000000ull;
        g_cycleHz = hz;
    }
    return hz;
}

int64_t system_cycle()
{
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now() - g_epoch)
                  .count();
    return (int64_t)((__int128)ns * (__int128)cycle_rate() / 1000000000);
}

void cross_core_set_flag(int mode, uint16_t flagId)
{
    check_flag_id(flagId);
    g_sets++;
    Launch &l = launch();
    if (mode == 0) {
        std::lock_guard<std::mutex> lk(l.m);
        l.mode0[flagId]++;
        l.cv.notify_all();
        return;
    }
    Group &g = *l.groups[(size_t)t_core.group];
    std::lock_guard<std::mutex> lk(g.m);
    if (mode == 2 && t_core.coreType == AscendC::AIV) {
        g.toAic[t_core.subBlockIdx][flagId]++;
    } else if (mode == 2) {
        for (int64_t s = 0; s < 2; s++) {
            g.toAiv[s][flagId]++;
        }
    } else if (mode == 1 && t_core.coreType == AscendC::AIV) {
        g.toAiv[1 - t_core.subBlockIdx][flagId]++;
    } else {
        std::fprintf(stderr, "sim: CrossCoreSetFlag mode %d not simulated on this core\n", mode);
        std::abort();
    }
    g.cv.notify_all();
}

// A wait does not know the mode; it consumes what its own core type is owed: an AIC one arrival
// from EACH AIV of its group (two sets from the same AIV do not satisfy it), an AIV one arrival.
// Mode-0 arrivals are waited for by nothing here: SyncAll is the modelled whole-launch barrier.
void cross_core_wait_flag(uint16_t flagId)
{
    check_flag_id(flagId);
    g_waits++;
    Launch &l = launch();
    Group &g = *l.groups[(size_t)t_core.group];
    std::unique_lock<std::mutex> lk(g.m);
    bool ok;
    if (t_core.coreType == AscendC::AIC) {
        int64_t subs = t_core.subBlockNum;
        ok = g.cv.wait_for(lk, wait_limit(), [&] {
            for (int64_t s = 0; s < subs; s++) {
                if (g.toAic[s][flagId] < 1) {
                    return false;
                }
            }
            return true;
        });
        for (int64_t s = 0; ok && s < subs; s++) {
            g.toAic[s][flagId]--;
        }
    } else {
        int *counter = &g.toAiv[t_core.subBlockIdx][flagId];
        ok = g.cv.wait_for(lk, wait_limit(), [&] { return *counter >= 1; });
        if (ok) {
            (*counter)--;
        }
    }
    if (!ok) {
        deadlock("flag", flagId);
    }
}

void sync_all()
{
    Launch &l = launch();
    std::unique_lock<std::mutex> lk(l.m);
    uint64_t gen = l.generation;
    if (++l.arrived == l.cores) {
        l.arrived = 0;
        l.generation++;
        l.cv.notify_all();
        return;
    }
    if (!l.cv.wait_for(lk, wait_limit(), [&] { return l.generation != gen; })) {
        deadlock("SyncAll generation", (int)gen);
    }
}

Stats stats()
{
    return Stats{g_dcci.load(), g_barriers.load(), g_sets.load(), g_waits.load(),
                 g_launches.load()};
}

void reset_stats()
{
    g_dcci = 0;
    g_barriers = 0;
    g_sets = 0;
    g_waits = 0;
    g_launches = 0;
}

void note_dcci() { g_dcci++; }
void note_pipe_barrier() { g_barriers++; }

int run_cores(uint32_t blockDim, LaunchMode mode, const std::function<void()> &body)
{
    if (blockDim == 0 || blockDim > kMaxBlockDim) {
        return -1;
    }
    std::lock_guard<std::mutex> one(g_launchLock);
    Launch l;
    l.blockDim = blockDim;
    for (uint32_t b = 0; b < blockDim; b++) {
        l.groups.emplace_back(new Group());
    }
    std::vector<CoreIdentity> ids;
    for (uint32_t b = 0; b < blockDim; b++) {
        if (mode == LaunchMode::Mix1C2V) {
            ids.push_back({AscendC::AIC, b, blockDim, 0, 2, b});
            ids.push_back({AscendC::AIV, 2 * (int64_t)b, blockDim, 0, 2, b});
            ids.push_back({AscendC::AIV, 2 * (int64_t)b + 1, blockDim, 1, 2, b});
        } else if (mode == LaunchMode::AivOnly) {
            ids.push_back({AscendC::AIV, b, blockDim, 0, 1, b});
        } else {
            ids.push_back({AscendC::AIC, b, blockDim, 0, 1, b});
        }
    }
    l.cores = (uint32_t)ids.size();
    g_launch = &l;
    g_launches++;
    std::vector<std::thread> threads;
    threads.reserve(ids.size());
    for (const CoreIdentity &id : ids) {
        threads.emplace_back([&body, id]() {
            t_core = id;
            g_coreType = id.coreType;
            body();
            t_core = CoreIdentity{0, 0, 0, 0, 0, 0};
            g_coreType = 0;
        });
    }
    for (std::thread &t : threads) {
        t.join();
    }
    g_launch = nullptr;
    return 0;
}

} // namespace sim
