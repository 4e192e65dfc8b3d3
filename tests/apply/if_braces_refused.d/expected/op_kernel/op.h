// Test operator kernel class: the #else branch leaves a brace unopened (that
// configuration does not build), so no points can balance under both:
// refused, located, nothing written.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        n_ = 1;
#ifdef OP_GUARDED
        if (n_ > 0) {
            n_ = 2;
#else
        n_ = 4;
#endif
            n_ = 3;
        }
    }

    int n_ = 0;
};
