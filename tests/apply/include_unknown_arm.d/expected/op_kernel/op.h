// Test operator kernel class, with a helper header of one SoC.
#pragma once
#include <kernel_operator.h>
#include "op_base.h" // autotrace
#if __CCE_AICORE__ == 200
#include "op_common.h"
#endif

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Compute(3);
        Compute(4);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Compute(int n)
    {
        MoeTracing(TRACE_POINT("processing compute", "B")); // autotrace
        x_ += n;
        MoeTracing(TRACE_POINT("processing compute", "E")); // autotrace
    }

    int x_ = 0;
};
