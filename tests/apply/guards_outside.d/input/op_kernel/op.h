// Test operator kernel class: leading guards stay outside the points.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        if (n_ == 0) {
            return;
        }
        if (n_ < 0)
            return;
        Stage();
        Count();
    }

private:
    __aicore__ inline void Stage()
    {
        if (n_ > 100) return;
        n_--;
    }

    // not a guard: the return does work
    __aicore__ inline int Count()
    {
        if (n_ > 1)
            return Fetch();
        return 0;
    }

    __aicore__ inline int Fetch() { return n_; }
    int n_ = 3;
};
