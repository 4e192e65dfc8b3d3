// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        auto pick = [&](int v) {
            if (v < 0) {
                return 0;
            }
            return v * 2;
        };
        n_ = pick(3);
        if (n_ > 4) {
            return;
        }
        n_ = pick(n_);
    }

    int n_ = 0;
};
