// Test operator kernel class: `phase "{name}" function /::Gmm\d$/` names the
// phase of each GEMM stage after the function (Gmm1 -> "gmm1"); the labels
// of the stage, of its loop and of the wait in the helper it calls carry it.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Gmm1();
        Gmm2();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Gmm1()
    {
        MoeTracing(TRACE_POINT("gmm1", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < groups_; groupIdx++) {
            MoeTracing(TRACE_POINT("gmm1 group", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("gmm1 cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(1);
            MoeTracing(TRACE_POINT("gmm1 cross-core-wait-flag", "E")); // autotrace
            rows_ += groupIdx;
            MoeTracing(TRACE_POINT("gmm1 group", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("gmm1", "E")); // autotrace
    }

    __aicore__ inline void Gmm2()
    {
        MoeTracing(TRACE_POINT("gmm2", "B")); // autotrace
        LoadInput();
        rows_ = 0;
        MoeTracing(TRACE_POINT("gmm2", "E")); // autotrace
    }

    __aicore__ inline void LoadInput()
    {
        MoeTracing(TRACE_POINT("gmm2 cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(2);
        MoeTracing(TRACE_POINT("gmm2 cross-core-wait-flag", "E")); // autotrace
        rows_++;
    }

    uint32_t groups_ = 4;
    uint32_t rows_ = 0;
};
