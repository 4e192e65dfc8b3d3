// Test operator kernel class: it instantiates the block kernel with MyBlock.
#pragma once
#include "block_kernel.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        using MyK = BlockKernel<MyBlock>;
        MyK kernel;
        kernel.Run(groups_);
    }

private:
    uint32_t groups_ = 4;
};
