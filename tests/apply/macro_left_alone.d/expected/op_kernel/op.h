// Test operator kernel class.
#pragma once
#include "op_base.h"

#define WAIT_AND_COUNT(x)                  \
    do {                                   \
        AscendC::CrossCoreWaitFlag(1);     \
        (x)++;                             \
    } while (0)

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        WAIT_AND_COUNT(n_);
        for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
            MoeTracing(TRACE_POINT("group", "B"), groupIdx); // autotrace
            WAIT_AND_COUNT(groupIdx);
            MoeTracing(TRACE_POINT("group", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    uint32_t n_ = 0;
};
