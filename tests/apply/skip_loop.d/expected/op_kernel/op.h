// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
            MoeTracing(TRACE_POINT("processing group-idx", "B")); // autotrace
            for (uint32_t kIdx = 0; kIdx < 4; kIdx++) {
                AscendC::CrossCoreWaitFlag(1);
            }
            MoeTracing(TRACE_POINT("processing group-idx", "E")); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }
};
