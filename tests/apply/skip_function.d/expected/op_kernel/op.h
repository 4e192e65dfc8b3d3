// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Stage();
        Debug();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Stage()
    {
        MoeTracing(TRACE_POINT("stage", "B")); // autotrace
        MoeTracing(TRACE_POINT("stage wait", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("stage wait", "E")); // autotrace
        MoeTracing(TRACE_POINT("stage", "E")); // autotrace
    }

    __aicore__ inline void Debug()
    {
        AscendC::CrossCoreWaitFlag(2);
    }
};
