// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Prepare();
        Compute(3);
    }

private:
    __aicore__ inline void Prepare()
    {
        x_ = 1;
    }

    __aicore__ inline void Compute(int n)
    {
        x_ += n;
    }

    int x_ = 0;
};
