// Test operator: Gmm2 runs before Gmm1, and both call Step.
#pragma once
#include "op_base.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Gmm2(rows_);
        Gmm1(rows_);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Gmm1(uint32_t rows)
    {
        MoeTracing(TRACE_POINT("processing gmm1", "B")); // autotrace
        Step(rows);
        acc_ += rows;
        MoeTracing(TRACE_POINT("processing gmm1", "E")); // autotrace
    }

    __aicore__ inline void Gmm2(uint32_t rows)
    {
        MoeTracing(TRACE_POINT("processing gmm2", "B")); // autotrace
        Step(rows);
        acc_ -= rows;
        MoeTracing(TRACE_POINT("processing gmm2", "E")); // autotrace
    }

    __aicore__ inline void Step(uint32_t rows)
    {
        MoeTracing(TRACE_POINT("processing gmm2 step", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        acc_ *= rows;
        MoeTracing(TRACE_POINT("processing gmm2 step", "E")); // autotrace
    }

    uint32_t rows_ = 4;
    uint32_t acc_ = 0;
};
