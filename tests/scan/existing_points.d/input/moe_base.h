#pragma once
#define ENABLE_MOE_PROFILING 1
#define PROF_SIZE_PER_CORE 2048
#ifndef ENABLE_MOE_PROFILING_BARRIER
#define ENABLE_MOE_PROFILING_BARRIER false
#endif
template <bool sync = ENABLE_MOE_PROFILING_BARRIER>
__aicore__ inline void MoeTracing(int64_t data)
{
#if ENABLE_MOE_PROFILING
    if constexpr (sync) {
        PipeBarrier<PIPE_ALL>();
    }
    int64_t *p = GetMoeProfilePtr();
    int64_t k = p[0];
    p[k] = data;
    p[PROF_SIZE_PER_CORE - 1 - k] = AscendC::GetSystemCycle();
    p[0] = k + 1;
#endif
}
