// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        n_ = 1;
#ifdef OP_FAST_PATH
        n_ = 3;
#else
        if (n_ > 0) {
            return;
        }
#endif
        n_ = 2;
    }

    int n_ = 0;
};
