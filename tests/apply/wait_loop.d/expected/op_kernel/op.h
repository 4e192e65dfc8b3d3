// Test operator kernel class: a loop that only waits is timed as a whole,
// once, not per iteration; a loop that also computes is not timed.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Compute();
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag-loop", "B")); // autotrace
        for (uint32_t g = done_; g < 8; g++) {
            AscendC::CrossCoreWaitFlag(g);
        }
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag-loop", "E")); // autotrace
        for (uint32_t i = 0; i < 8; i++) {
            AscendC::CrossCoreWaitFlag(i);
            Compute();
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Compute() { done_++; }
    uint32_t done_ = 0;
};
