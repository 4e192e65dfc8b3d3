// Test operator kernel class: a region whose first and last statement is one
// `if` statement (with an else). The region is that statement: one B before
// it and one E after it, not one pair per arm of its chain.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        rows_ = 4;
        MoeTracing(TRACE_POINT("processing guarded", "B")); // autotrace
        if (needSync_) {
            AscendC::SyncAll<false>();
            rows_++;
        } else {
            AscendC::CrossCoreWaitFlag(1);
        }
        MoeTracing(TRACE_POINT("processing guarded", "E")); // autotrace
        rows_ = 0;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    bool needSync_ = true;
    uint32_t rows_ = 0;
};
