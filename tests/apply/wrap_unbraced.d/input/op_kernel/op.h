// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        if (n_ == 0)
            Sync();
        if (n_ == 1) Sync();
        for (int i = 0; i < 2; i++)
            Sync();
    }

private:
    __aicore__ inline void Sync()
    {
        n_++;
    }

    int n_ = 0;
};
