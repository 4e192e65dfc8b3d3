// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Step(2);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Step(int n)
    {
        MoeTracing(TRACE_POINT("step", "B")); // autotrace
        if (n > 1) { // autotrace
            MoeTracing(TRACE_POINT("step", "E")); // autotrace
            return Step(n - 1);
        } // autotrace
        Touch();
        MoeTracing(TRACE_POINT("step", "E")); // autotrace
    }

    __aicore__ inline void Touch()
    {
        n_++;
    }

    int n_ = 0;
};
