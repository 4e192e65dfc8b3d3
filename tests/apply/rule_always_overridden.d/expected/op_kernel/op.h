// Test operator kernel class: rules of the operator's own that match code
// but lose every construct to a later rule (a particular one before a general
// one, a skip before a rule for the same function) are listed by plan with
// the rule that takes their constructs; a skip rule that skips is not.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Gmm1();
        Gmm2();
        LoadInput();
        Helper();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Gmm1()
    {
        MoeTracing(TRACE_POINT("gmm1", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < groups_; groupIdx++) {
            MoeTracing(TRACE_POINT("gmm1 group", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("gmm1 group wait", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(1);
            MoeTracing(TRACE_POINT("gmm1 group wait", "E")); // autotrace
            rows_ += groupIdx;
            MoeTracing(TRACE_POINT("gmm1 group", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("gmm1", "E")); // autotrace
    }

    __aicore__ inline void Gmm2()
    {
        MoeTracing(TRACE_POINT("gmm2", "B")); // autotrace
        MoeTracing(TRACE_POINT("gmm2 wait", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(2);
        MoeTracing(TRACE_POINT("gmm2 wait", "E")); // autotrace
        rows_ = 0;
        MoeTracing(TRACE_POINT("gmm2", "E")); // autotrace
    }

    __aicore__ inline void LoadInput()
    {
        MoeTracing(TRACE_POINT("load-input", "B")); // autotrace
        MoeTracing(TRACE_POINT("load-input wait", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(3);
        MoeTracing(TRACE_POINT("load-input wait", "E")); // autotrace
        rows_++;
        MoeTracing(TRACE_POINT("load-input", "E")); // autotrace
    }

    __aicore__ inline void Helper()
    {
        AscendC::CrossCoreWaitFlag(4);
        rows_--;
    }

    uint32_t groups_ = 4;
    uint32_t rows_ = 0;
};
