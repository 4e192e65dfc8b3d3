// Test operator kernel class: the matmul kernel is a type alias.
#pragma once
#include "kernel.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        using MatmulKernel = Kernel<BlockA, 4>;
        typename MatmulKernel::Params params{groups_};
        MatmulKernel kernel(params);
        kernel(params);
    }

private:
    uint32_t groups_ = 4;
};
