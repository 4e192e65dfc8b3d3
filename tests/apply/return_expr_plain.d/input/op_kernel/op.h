// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        total_ = Twice(4);
    }

private:
    __aicore__ inline int Twice(int n)
    {
        int r = n + n;
        return r;
    }

    int total_ = 0;
};
