// Test kernels: two matmul kernels an operator chooses between with
// std::conditional, and a third one nobody chooses.
#pragma once
#include "op_base.h"

struct GemmParams {
    uint32_t groups;
};

class KernelA {
public:
    __aicore__ inline void operator()(const GemmParams &params)
    {
        MoeTracing(TRACE_POINT("processing kernel-a", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        done_ = params.groups;
        MoeTracing(TRACE_POINT("processing kernel-a", "E")); // autotrace
    }

private:
    uint32_t done_ = 0;
};

class KernelB {
public:
    __aicore__ inline void operator()(const GemmParams &params)
    {
        MoeTracing(TRACE_POINT("processing kernel-b", "B")); // autotrace
        AscendC::SyncAll<false>();
        done_ = params.groups * 2;
        MoeTracing(TRACE_POINT("processing kernel-b", "E")); // autotrace
    }

private:
    uint32_t done_ = 0;
};

class KernelC {
public:
    __aicore__ inline void operator()(const GemmParams &params)
    {
        done_ = params.groups + 1;
    }

private:
    uint32_t done_ = 0;
};
