// Test operator kernel class: it waits, then runs the embedded operator.
#pragma once
#include "sub_op.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag", "E")); // autotrace
        MoeTracing(TRACE_POINT("sub-op sub", "B")); // autotrace
        sub_op(rows_);
        MoeTracing(TRACE_POINT("sub-op sub", "E")); // autotrace
        rows_ = 0;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    uint32_t rows_ = 4;
};
