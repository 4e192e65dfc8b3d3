// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Touch();
        if (n_ == 0) {
            return;
        }
        if (n_ < 0)
            return;
        if (n_ > 100) return;
        n_--;
    }

    __aicore__ inline void Touch() {}
    int n_ = 3;
};
