// Test operator kernel class: the loop's index expression is a variable its
// body declares first (`uint32_t tracingIdx = next++;`), so the loop's B
// goes after that declaration (where tracingIdx exists) and its E at the
// end of the body and before the `continue` that leaves it.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        uint32_t next = 0;
        for (uint32_t groupIdx = first_; groupIdx < groups_; groupIdx += stride_) {
            uint32_t tracingIdx = next++;
            MoeTracing(TRACE_POINT("processing group", "B"), tracingIdx); // autotrace
            if (groupIdx == empty_) {
                MoeTracing(TRACE_POINT("processing group", "E"), tracingIdx); // autotrace
                continue;
            }
            AscendC::CrossCoreWaitFlag(1);
            rows_ += groupIdx;
            MoeTracing(TRACE_POINT("processing group", "E"), tracingIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    uint32_t first_ = 0;
    uint32_t groups_ = 8;
    uint32_t stride_ = 2;
    uint32_t empty_ = 4;
    uint32_t rows_ = 0;
};
