// Test operator kernel class.
#pragma once
#include "op_base.h"
#include "gemm/stage.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Stage();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }
};
