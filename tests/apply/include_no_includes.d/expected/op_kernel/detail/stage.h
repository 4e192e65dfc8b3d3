// A stage in a subdirectory, with no include of its own.
#pragma once
#include "../op_base.h" // autotrace

__aicore__ inline void Stage(int n)
{
    MoeTracing(TRACE_POINT("stage", "B")); // autotrace
    (void)n;
    MoeTracing(TRACE_POINT("stage", "E")); // autotrace
}
