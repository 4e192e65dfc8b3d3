// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing<true>(TRACE_POINT("gmm1 wait-dispatch", "B"));
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("gmm1 wait-dispatch", "E"));
        AscendC::CrossCoreWaitFlag(2);
    }
};
