// sim_runtime.h - host simulation of an Ascend AI Core launch: every core is a thread.
//
// A launch of block_dim blocks of a 1C2V (mixed) kernel runs 3*block_dim threads: per block one
// AIC (cube) core and two AIV (vector) cores, each with its own thread_local identity, as the
// hardware reports it: GetBlockNum() == block_dim on every core; AIC block index b in
// [0, block_dim); AIV block index 2*b + sub in [0, 2*block_dim), GetSubBlockIdx() == sub.
// The kernel API that reads this identity lives in kernel_operator.h; this header is the part a
// host program (a test driver, an "aclnn" stand-in) uses to start kernels and read counters.
#ifndef AUTOTRACE_SIM_RUNTIME_H
#define AUTOTRACE_SIM_RUNTIME_H

#include <cstdint>
#include <functional>

namespace sim {

enum class LaunchMode {
    Mix1C2V, // 1 AIC + 2 AIV per block (the default)
    AivOnly, // one AIV per block, GetBlockNum() == block_dim, GetSubBlockNum() == 1
    AicOnly, // one AIC per block
};

struct CoreIdentity {
    int32_t coreType;    // AscendC::AIC or AscendC::AIV, 0 outside a launch
    int64_t blockIdx;    // GetBlockIdx()
    int64_t blockNum;    // GetBlockNum()
    int64_t subBlockIdx; // GetSubBlockIdx()
    int64_t subBlockNum; // GetSubBlockNum()
    int64_t group;       // index of the 1C2V group (= AIC block index)
};

// Counters of the device operations the runtime relies on, summed over all cores of all
// launches since the last reset_stats().
struct Stats {
    uint64_t dcciLines;    // DataCacheCleanAndInvalid calls
    uint64_t pipeBarriers; // PipeBarrier calls
    uint64_t flagSets;     // CrossCoreSetFlag calls
    uint64_t flagWaits;    // CrossCoreWaitFlag calls
    uint64_t launches;
};

const CoreIdentity &current_core();

// GetSystemCycle() rate. Default 50 MHz (50 cycles = 1 us), or $AUTOTRACE_SIM_CYCLE_HZ.
void set_cycle_rate(uint64_t hz);
uint64_t cycle_rate();
int64_t system_cycle();

// Cross-core flags of the calling core's group; see kernel_operator.h for the semantics.
void cross_core_set_flag(int mode, uint16_t flagId);
void cross_core_wait_flag(uint16_t flagId);
// Barrier over every core of the launch (AscendC::SyncAll).
void sync_all();

Stats stats();
void reset_stats();
void note_dcci();
void note_pipe_barrier();

// Runs body on every core of a launch and returns when all have finished. Returns 0, or -1 when
// block_dim is 0 or too large. A core that waits longer than $AUTOTRACE_SIM_WAIT_MS (default
// 20000) for a flag or barrier aborts the process with a message naming the core: a deadlocked
// kernel fails a test instead of hanging it.
int run_cores(uint32_t blockDim, LaunchMode mode, const std::function<void()> &body);

} // namespace sim

// sim_launch(kernel, block_dim, args...): run kernel(args...) on a 1C2V launch of block_dim blocks.
template <typename Fn, typename... Args>
int sim_launch(Fn kernel, uint32_t blockDim, Args... args)
{
    return sim::run_cores(blockDim, sim::LaunchMode::Mix1C2V, [=]() { kernel(args...); });
}

template <typename Fn, typename... Args>
int sim_launch_mode(sim::LaunchMode mode, Fn kernel, uint32_t blockDim, Args... args)
{
    return sim::run_cores(blockDim, mode, [=]() { kernel(args...); });
}

#endif // AUTOTRACE_SIM_RUNTIME_H
