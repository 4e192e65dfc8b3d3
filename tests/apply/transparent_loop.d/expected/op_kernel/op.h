// Test operator kernel class: a loop a loop rule would time, made
// transparent. It gets no point, and it is not tile level either: the hot
// calls inside it get their points, in the root's, as the code around the
// loop would (a loop without a point would time nothing inside). The same
// for a function a function rule would time.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t expertIdx = 0; expertIdx < experts_; ++expertIdx) {
            MoeTracing(TRACE_POINT("processing cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(1);
            MoeTracing(TRACE_POINT("processing cross-core-wait-flag", "E")); // autotrace
            rows_ += expertIdx;
        }
        Combine();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Combine()
    {
        rows_ = 0;
        MoeTracing(TRACE_POINT("processing sync-all", "B")); // autotrace
        AscendC::SyncAll<true>();
        MoeTracing(TRACE_POINT("processing sync-all", "E")); // autotrace
    }

    uint32_t experts_ = 4;
    uint32_t rows_ = 0;
};
