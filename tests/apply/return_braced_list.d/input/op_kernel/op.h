// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    struct Pair {
        int a;
        int b;
    };

    __aicore__ inline void Process()
    {
        Pair p = Make(1);
        n_ = p.a + p.b;
    }

private:
    __aicore__ inline Pair Make(int v)
    {
        return {Bump(v), v};
    }

    __aicore__ inline int Bump(int v)
    {
        return v + 1;
    }

    int n_ = 0;
};
