// No newline at the end.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        n_ = 1;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }
    int n_ = 0;
};