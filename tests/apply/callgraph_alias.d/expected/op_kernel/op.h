// Test operator kernel class: the matmul kernel is a type alias.
#pragma once
#include "kernel.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        using MatmulKernel = Kernel<BlockA, 4>;
        typename MatmulKernel::Params params{groups_};
        MatmulKernel kernel(params);
        kernel(params);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    uint32_t groups_ = 4;
};
