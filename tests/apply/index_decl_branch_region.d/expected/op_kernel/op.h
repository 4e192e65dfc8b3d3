// Test operator kernel class: as a loop's, a branch's B goes after the
// leading declaration of its body that declares the variable its index
// expression names (where tracingIdx exists), and a region's B after the
// region's leading declaration of groupIdx; their E stay at the end.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        if (isSendCore_) {
            uint32_t tracingIdx = next_++;
            MoeTracing(TRACE_POINT("processing send", "B"), tracingIdx); // autotrace
            AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(1);
            rows_ += tracingIdx;
            MoeTracing(TRACE_POINT("processing send", "E"), tracingIdx); // autotrace
        }
        uint32_t groupIdx = first_ + 1;
        MoeTracing(TRACE_POINT("processing group", "B"), groupIdx); // autotrace
        rows_ += groupIdx;
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing group", "E"), groupIdx); // autotrace
        rows_ = 0;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    bool isSendCore_ = true;
    uint32_t next_ = 0;
    uint32_t first_ = 0;
    uint32_t rows_ = 0;
};
