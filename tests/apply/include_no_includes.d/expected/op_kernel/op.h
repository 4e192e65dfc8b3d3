// Test operator kernel class.
#pragma once
#include "op_base.h"
#include "detail/stage.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Stage(1);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }
};
