// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        total_ = Sum(4);
    }

private:
    __aicore__ inline int Sum(int n)
    {
        if (n <= 1) {
            return Load(n);
        }
        return Load(n) + Sum(n - 1);
    }

    __aicore__ inline int Load(int i)
    {
        return i * 2;
    }

    int total_ = 0;
};
