// guard_check.cpp - capacity guard, kernel-scope helper and slot arithmetic of moe_tracing.h on
// the host simulation. Built per layout with a small slot: -DPROF_SIZE_PER_CORE=64
// -DMOE_PROFILING_LAYOUT=1|2 (and -DMOE_TRACING_AIV_ONLY=1 for a vector-only launch).
// Prints TAP-style lines; exits 1 on any failure.
#include <cstdio>
#include <string>
#include <vector>

#include "moe_tracing.h"

namespace {

constexpr int64_t S = PROF_SIZE_PER_CORE;
constexpr int64_t CAP = MOE_TRACING_CAPACITY;
constexpr uint32_t ATTEMPTS = CAP + 12;
constexpr int64_t CANARY = 0x0BADC0DE0BADC0DELL;
constexpr uint32_t BLOCKS = 3;
#if MOE_TRACING_AIV_ONLY
constexpr uint32_t SLOTS = BLOCKS;
#else
constexpr uint32_t SLOTS = 3 * BLOCKS;
#endif

int failures = 0;

void report(bool ok, const std::string &name, const std::string &why)
{
    std::printf("%s - %s\n", ok ? "ok" : "not ok", name.c_str());
    if (!ok) {
        std::printf("# %s\n", why.c_str());
        failures++;
    }
}

} // namespace

// Records ATTEMPTS points into a stack buffer guarded by canary words; reports per slot the
// dropped count the runtime saw and whether the canary survived.
extern "C" __global__ __aicore__ void flood_kernel(GM_ADDR prof, GM_ADDR result)
{
    int64_t buf[S + 8];
    for (int i = 0; i < 8; i++) {
        buf[S + i] = CANARY;
    }
    MoeTracingKernelBegin(prof, buf);
    for (uint32_t i = 0; i < ATTEMPTS; i++) {
        MoeTracing(100 + i, i);
    }
    bool canary = true;
    for (int i = 0; i < 8; i++) {
        canary = canary && buf[S + i] == CANARY;
    }
    int64_t *r = (int64_t *)result + 2 * MoeTracingSlotIndex();
    r[0] = GetMoeDroppedCount();
    r[1] = canary ? 1 : 0;
    MoeTracingKernelEnd();
}

// The scope helper writes the slot back on an early return too.
extern "C" __global__ __aicore__ void early_return_kernel(GM_ADDR prof)
{
    MOE_TRACING_KERNEL_SCOPE(prof);
    MoeTracing(1);
    if (AscendC::GetBlockIdx() % 2 == 1) {
        return;
    }
    MoeTracing(2);
}

static int64_t records(const int64_t *p)
{
#if MOE_PROFILING_LAYOUT == 1
    return p[0] - 1;
#else
    return p[MOE_V2_W_COUNT];
#endif
}

static int64_t record_word(const int64_t *p, int64_t k)
{
#if MOE_PROFILING_LAYOUT == 1
    return p[1 + k];
#else
    return p[MOE_V2_HEADER_WORDS + 2 * k];
#endif
}

int main()
{
    std::vector<int64_t> prof(SLOTS * S + 16, CANARY);
    std::vector<int64_t> result(2 * SLOTS, -1);
#if MOE_TRACING_AIV_ONLY
    int rc = sim_launch_mode(sim::LaunchMode::AivOnly, flood_kernel, BLOCKS, (GM_ADDR)prof.data(),
                             (GM_ADDR)result.data());
#else
    int rc = sim_launch(flood_kernel, BLOCKS, (GM_ADDR)prof.data(), (GM_ADDR)result.data());
#endif
    report(rc == 0, "flood kernel runs", "launch failed");

    std::string why;
    for (uint32_t s = 0; s < SLOTS && why.empty(); s++) {
        const int64_t *p = &prof[(size_t)s * S];
        if (records(p) != CAP) {
            why = "slot " + std::to_string(s) + ": " + std::to_string(records(p)) + " records, capacity " + std::to_string(CAP);
        }
        for (int64_t k = 0; k < CAP && why.empty(); k++) {
            int64_t want = (int64_t)((uint64_t)(100 + k) | ((uint64_t)k << 32));
            if (record_word(p, k) != want) {
                why = "slot " + std::to_string(s) + " record " + std::to_string(k) + " is not the k-th point";
            }
        }
    }
    report(why.empty(), "a full slot keeps the first capacity records in order", why);

    why.clear();
    for (uint32_t s = 0; s < SLOTS && why.empty(); s++) {
        if (result[2 * s] != (int64_t)(ATTEMPTS - CAP)) {
            why = "slot " + std::to_string(s) + ": device saw " + std::to_string(result[2 * s]) + " dropped";
        }
#if MOE_PROFILING_LAYOUT == 2
        if (prof[(size_t)s * S + MOE_V2_W_DROPPED] != (int64_t)(ATTEMPTS - CAP)) {
            why = "slot " + std::to_string(s) + ": header says " + std::to_string(prof[(size_t)s * S + MOE_V2_W_DROPPED]) + " dropped";
        }
#endif
    }
    report(why.empty(), "dropped records counted (" + std::to_string(ATTEMPTS - CAP) + " per core)", why);

    bool stackOk = true;
    for (uint32_t s = 0; s < SLOTS; s++) {
        stackOk = stackOk && result[2 * s + 1] == 1;
    }
    report(stackOk, "nothing written past the stack buffer", "stack canary overwritten");

    bool gmOk = true;
    for (size_t i = SLOTS * S; i < prof.size(); i++) {
        gmOk = gmOk && prof[i] == CANARY;
    }
    report(gmOk, "nothing written past the last GM slot", "GM canary overwritten");

#if MOE_TRACING_AIV_ONLY
    why.clear();
    for (uint32_t s = 0; s < SLOTS && why.empty(); s++) {
#if MOE_PROFILING_LAYOUT == 2
        const int64_t *p = &prof[(size_t)s * S];
        if ((p[1] & 0xFF) != MOE_CORE_TYPE_AIV || p[2] != (int64_t)s || ((p[1] >> 8) & 0xFF) != 1) {
            why = "slot " + std::to_string(s) + " header does not name AIV block " + std::to_string(s);
        }
#endif
    }
    report(why.empty(), "vector-only kernel: AIV block v writes slot v", why);
#else
    std::vector<int64_t> prof2(SLOTS * S, CANARY);
    rc = sim_launch(early_return_kernel, BLOCKS, (GM_ADDR)prof2.data());
    why.clear();
    for (uint32_t s = 0; s < SLOTS && why.empty(); s++) {
        // AIC block b in slot b; AIV block v in slot BLOCKS + v; odd blocks return early.
        int64_t blk = s < BLOCKS ? s : s - BLOCKS;
        int64_t want = blk % 2 == 1 ? 1 : 2;
        if (records(&prof2[(size_t)s * S]) != want) {
            why = "slot " + std::to_string(s) + ": " + std::to_string(records(&prof2[(size_t)s * S])) + " records, expected " + std::to_string(want);
        }
    }
    report(rc == 0 && why.empty(), "MOE_TRACING_KERNEL_SCOPE writes back on an early return", why);
#endif
    return failures ? 1 : 0;
}
