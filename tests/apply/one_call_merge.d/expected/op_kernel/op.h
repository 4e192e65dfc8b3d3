// Test operator kernel class: RunGmm's body is one call of Gmm, and both
// match a function rule. Both points would time the same interval, so
// there is one (RunGmm's) and Gmm is merged into it.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        RunGmm();
        rows_ = 0;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void RunGmm()
    {
        MoeTracing(TRACE_POINT("processing run-gmm", "B")); // autotrace
        Gmm(rows_);
        MoeTracing(TRACE_POINT("processing run-gmm", "E")); // autotrace
    }

    __aicore__ inline void Gmm(uint32_t rows)
    {
        AscendC::CrossCoreWaitFlag(1);
        acc_ += rows;
    }

    uint32_t rows_ = 4;
    uint32_t acc_ = 0;
};
