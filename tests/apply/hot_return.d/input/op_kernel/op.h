// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        n_ = Fetch(1);
    }

private:
    __aicore__ inline int Fetch(int v)
    {
        if (v > 0) {
            return WaitValue(v);
        }
        return 0;
    }

    __aicore__ inline int WaitValue(int v)
    {
        return v;
    }

    int n_ = 0;
};
