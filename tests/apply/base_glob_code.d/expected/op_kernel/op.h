// Test operator kernel class: two stages built on one base class.
#pragma once
#include "stage_base.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        dispatch_.Run();
        combine_.Run();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    DispatchStage dispatch_;
    CombineStage<float> combine_;
};
