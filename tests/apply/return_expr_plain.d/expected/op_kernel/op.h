// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        total_ = Twice(4);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline int Twice(int n)
    {
        MoeTracing(TRACE_POINT("processing twice", "B")); // autotrace
        int r = n + n;
        MoeTracing(TRACE_POINT("processing twice", "E")); // autotrace
        return r;
    }

    int total_ = 0;
};
