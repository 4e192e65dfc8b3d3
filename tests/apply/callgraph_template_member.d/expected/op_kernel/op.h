// Test operator kernel class: it instantiates the block kernel with MyBlock.
#pragma once
#include "block_kernel.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        using MyK = BlockKernel<MyBlock>;
        MyK kernel;
        kernel.Run(groups_);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    uint32_t groups_ = 4;
};
