// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (int groupIdx = 0; groupIdx < 2; groupIdx++) // per group
            n_ += groupIdx;
        if (n_ > 0) // nothing else to do
            return;
        n_ = 5; // reset
    }

    int n_ = 0;
};
