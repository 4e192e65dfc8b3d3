// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Touch();
        if (n_ == 0) {
            MoeTracing(TRACE_POINT("processing", "E")); // autotrace
            return;
        }
        if (n_ < 0) { // autotrace
            MoeTracing(TRACE_POINT("processing", "E")); // autotrace
            return;
        } // autotrace
        if (n_ > 100) { // autotrace split
            MoeTracing(TRACE_POINT("processing", "E")); // autotrace
            return;
        } // autotrace
        n_--;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    __aicore__ inline void Touch() {}
    int n_ = 3;
};
