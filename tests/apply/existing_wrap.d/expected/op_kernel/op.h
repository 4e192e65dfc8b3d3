// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        MoeTracing<true>(TRACE_POINT("gmm1 wait-dispatch", "B"));
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("gmm1 wait-dispatch", "E"));
        MoeTracing(TRACE_POINT("processing wait", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(2);
        MoeTracing(TRACE_POINT("processing wait", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }
};
