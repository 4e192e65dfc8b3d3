// Test operator kernel class: `#N` after a regex selects the N-th match of
// the function body in source order. The two barriers are textually the
// same statement; only the second gets a point. The region starts at the
// second Gmm1 call and ends at the second wait, not at the first ones; of
// the waits, only the first is hot.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Gmm1();
        MoeTracing(TRACE_POINT("processing first wait", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing first wait", "E")); // autotrace
        AscendC::SyncAll<true>();
        rows_++;
        MoeTracing(TRACE_POINT("processing second gmm1", "B")); // autotrace
        Gmm1();
        rows_ += 2;
        AscendC::CrossCoreWaitFlag(2);
        MoeTracing(TRACE_POINT("processing second gmm1", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing combine barrier", "B")); // autotrace
        AscendC::SyncAll<true>();
        MoeTracing(TRACE_POINT("processing combine barrier", "E")); // autotrace
        rows_ = 0;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Gmm1() { rows_--; }
    uint32_t rows_ = 0;
};
