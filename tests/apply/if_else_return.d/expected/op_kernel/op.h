// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        n_ = 1;
#ifdef OP_FAST_PATH
        n_ = 3;
#else
        if (n_ > 0) {
            MoeTracing(TRACE_POINT("processing", "E")); // autotrace
            return;
        }
#endif
        n_ = 2;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    int n_ = 0;
};
