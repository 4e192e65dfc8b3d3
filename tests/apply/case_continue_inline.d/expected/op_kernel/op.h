// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t stageIdx = 0; stageIdx < 3; stageIdx++) {
            MoeTracing(TRACE_POINT("stage", "B"), stageIdx); // autotrace
            switch (stageIdx) {
            case 0: n_++; /*autotrace:*/MoeTracing(TRACE_POINT("stage", "E"), stageIdx); /*:autotrace*/continue;
            default: n_--; break;
            }
            n_ *= 2;
            MoeTracing(TRACE_POINT("stage", "E"), stageIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    int n_ = 0;
};
