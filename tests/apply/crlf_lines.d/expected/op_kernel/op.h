// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Prepare();
        Compute(3);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Prepare()
    {
        MoeTracing(TRACE_POINT("processing prepare", "B")); // autotrace
        x_ = 1;
        MoeTracing(TRACE_POINT("processing prepare", "E")); // autotrace
    }

    __aicore__ inline void Compute(int n)
    {
        MoeTracing(TRACE_POINT("processing function", "B")); // autotrace
        x_ += n;
        MoeTracing(TRACE_POINT("processing function", "E")); // autotrace
    }

    int x_ = 0;
};
