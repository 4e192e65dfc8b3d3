// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Step(2);
    }

private:
    __aicore__ inline void Step(int n)
    {
        if (n > 1)
            return Step(n - 1);
        Touch();
    }

    __aicore__ inline void Touch()
    {
        n_++;
    }

    int n_ = 0;
};
