// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
            MoeTracing(TRACE_POINT("group", "B"), groupIdx); // autotrace
            n_ += groupIdx;
            MoeTracing(TRACE_POINT("group", "E"), groupIdx); // autotrace
        }
        for (uint32_t expertIdx = 0; expertIdx < 2; expertIdx++) {
            MoeTracing(TRACE_POINT("expert", "B"), (uint32_t)AscendC::GetSubBlockIdx(), expertIdx); // autotrace
            n_ += expertIdx;
            MoeTracing(TRACE_POINT("expert", "E"), (uint32_t)AscendC::GetSubBlockIdx(), expertIdx); // autotrace
        }
        for (uint32_t stageIdx = 0; stageIdx < 2; stageIdx++) {
            MoeTracing(TRACE_POINT("stage", "B"), 7, 0); // autotrace
            n_ += stageIdx;
            MoeTracing(TRACE_POINT("stage", "E"), 7, 0); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    uint32_t n_ = 0;
};
