// Test operator: the stages Gmm1 and Gmm2 both call Sync, which waits.
#pragma once
#include "op_base.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Gmm1(rows_);
        Gmm2(rows_);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Gmm1(uint32_t rows)
    {
        MoeTracing(TRACE_POINT("gmm1", "B")); // autotrace
        acc_ += rows;
        Sync();
        MoeTracing(TRACE_POINT("gmm1", "E")); // autotrace
    }

    __aicore__ inline void Gmm2(uint32_t rows)
    {
        MoeTracing(TRACE_POINT("gmm2", "B")); // autotrace
        acc_ -= rows;
        Sync();
        MoeTracing(TRACE_POINT("gmm2", "E")); // autotrace
    }

    __aicore__ inline void Sync()
    {
        MoeTracing(TRACE_POINT("gmm1 cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("gmm1 cross-core-wait-flag", "E")); // autotrace
        acc_ *= 2;
    }

    uint32_t rows_ = 4;
    uint32_t acc_ = 0;
};
