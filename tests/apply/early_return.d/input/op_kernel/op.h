// Test operator kernel class.
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
        if (n_ > 100) return;
        n_--;
    }

    int n_ = 3;
};
