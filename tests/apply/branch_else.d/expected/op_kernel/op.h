// Test operator kernel class: an AIV role branch whose rule has an else
// label; the if arm gets "send", the else arm "recv".
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        if (AscendC::GetSubBlockIdx() == 0) {
            MoeTracing(TRACE_POINT("processing send", "B")); // autotrace
            AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(2);
            sent_++;
            MoeTracing(TRACE_POINT("processing send", "E")); // autotrace
        } else {
            MoeTracing(TRACE_POINT("processing recv", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(2);
            received_++;
            MoeTracing(TRACE_POINT("processing recv", "E")); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    uint32_t sent_ = 0;
    uint32_t received_ = 0;
};
