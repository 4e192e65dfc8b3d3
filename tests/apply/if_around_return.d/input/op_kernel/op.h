// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        n_ = 1;
#if defined(OP_EARLY_EXIT)
        if (n_ > 0) {
            return;
        }
#endif
        n_ = 2;
    }

    int n_ = 0;
};
