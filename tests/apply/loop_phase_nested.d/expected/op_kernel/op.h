// Test operator kernel class: stage loops inside a round loop.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t round = 0; round < 2; round++) {
            MoeTracing(TRACE_POINT("processing round", "B"), round); // autotrace
            for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
                MoeTracing(TRACE_POINT("first moe-process", "B"), groupIdx); // autotrace
                MoeTracing(TRACE_POINT("first moe-process wait", "B")); // autotrace
                AscendC::CrossCoreWaitFlag(1);
                MoeTracing(TRACE_POINT("first moe-process wait", "E")); // autotrace
                MoeTracing(TRACE_POINT("first moe-process", "E"), groupIdx); // autotrace
            }
            for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
                MoeTracing(TRACE_POINT("second moe-process", "B"), groupIdx); // autotrace
                MoeTracing(TRACE_POINT("second moe-process wait", "B")); // autotrace
                AscendC::CrossCoreWaitFlag(2);
                MoeTracing(TRACE_POINT("second moe-process wait", "E")); // autotrace
                MoeTracing(TRACE_POINT("second moe-process", "E"), groupIdx); // autotrace
            }
            MoeTracing(TRACE_POINT("processing round", "E"), round); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }
};
