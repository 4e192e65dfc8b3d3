// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        auto pick = [&](int v) {
            if (v < 0) {
                return 0;
            }
            return v * 2;
        };
        n_ = pick(3);
        if (n_ > 4) {
            MoeTracing(TRACE_POINT("processing", "E")); // autotrace
            return;
        }
        n_ = pick(n_);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    int n_ = 0;
};
