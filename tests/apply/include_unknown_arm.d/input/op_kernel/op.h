// Test operator kernel class, with a helper header of one SoC.
#pragma once
#include <kernel_operator.h>
#if __CCE_AICORE__ == 200
#include "op_common.h"
#endif

class Op {
public:
    __aicore__ inline void Process()
    {
        Compute(3);
        Compute(4);
    }

private:
    __aicore__ inline void Compute(int n)
    {
        x_ += n;
    }

    int x_ = 0;
};
