// Test operator kernel class: the code of rule_always_overridden, under its
// rules without the later ones that took their constructs: each rule now
// decides, and plan lists none as overridden or as matching nothing.
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
        MoeTracing(TRACE_POINT("gmm-first", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < groups_; groupIdx++) {
            MoeTracing(TRACE_POINT("gmm-first groups", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("gmm-first groups wait", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(1);
            MoeTracing(TRACE_POINT("gmm-first groups wait", "E")); // autotrace
            rows_ += groupIdx;
            MoeTracing(TRACE_POINT("gmm-first groups", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("gmm-first", "E")); // autotrace
    }

    __aicore__ inline void Gmm2()
    {
        MoeTracing(TRACE_POINT("processing wait", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(2);
        MoeTracing(TRACE_POINT("processing wait", "E")); // autotrace
        rows_ = 0;
    }

    __aicore__ inline void LoadInput()
    {
        AscendC::CrossCoreWaitFlag(3);
        rows_++;
    }

    __aicore__ inline void Helper()
    {
        AscendC::CrossCoreWaitFlag(4);
        rows_--;
    }

    uint32_t groups_ = 4;
    uint32_t rows_ = 0;
};
