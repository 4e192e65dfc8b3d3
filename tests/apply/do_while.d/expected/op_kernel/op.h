// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        uint32_t stageIdx = 0;
        do {
            MoeTracing(TRACE_POINT("do stage", "B"), stageIdx); // autotrace
            stageIdx++;
            MoeTracing(TRACE_POINT("do stage", "E"), stageIdx); // autotrace
        } while (stageIdx < 3);
        uint32_t groupIdx = 0;
        while (groupIdx < 3) {
            MoeTracing(TRACE_POINT("while group", "B"), groupIdx); // autotrace
            groupIdx++;
            if (groupIdx == 2) { // autotrace
                MoeTracing(TRACE_POINT("while group", "E"), groupIdx); // autotrace
                continue;
            } // autotrace
            MoeTracing(TRACE_POINT("while group", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }
};
