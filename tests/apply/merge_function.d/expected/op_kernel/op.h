// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        InitState();
        Stage();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void InitState()
    {
        MoeTracing(TRACE_POINT("processing wait", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing wait", "E")); // autotrace
    }

    __aicore__ inline void Stage()
    {
        MoeTracing(TRACE_POINT("stage", "B")); // autotrace
        n_ = 1;
        MoeTracing(TRACE_POINT("stage", "E")); // autotrace
    }

    int n_ = 0;
};
