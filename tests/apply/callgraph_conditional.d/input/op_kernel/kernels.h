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
        AscendC::CrossCoreWaitFlag(1);
        done_ = params.groups;
    }

private:
    uint32_t done_ = 0;
};

class KernelB {
public:
    __aicore__ inline void operator()(const GemmParams &params)
    {
        AscendC::SyncAll<false>();
        done_ = params.groups * 2;
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
