// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (int groupIdx = 0; groupIdx < 4; groupIdx++) {
            if (groupIdx == 2) {
                goto done;
            }
            n_++;
        }
    done:
        n_--;
    }

    int n_ = 0;
};
