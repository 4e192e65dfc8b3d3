// Test operator kernel class: two roots, each with its own label. Dispatch
// is the "dispatch" root and Combine the "combine" root; a stage called
// from each nests under that root's label ({parent}).
#pragma once
#include "op_base.h"

class MoeOp {
public:
    __aicore__ inline void Dispatch()
    {
        MoeTracing(TRACE_POINT("dispatch", "B")); // autotrace
        tokens_ = 16;
        SendTokens();
        MoeTracing(TRACE_POINT("dispatch", "E")); // autotrace
    }

    __aicore__ inline void Combine()
    {
        MoeTracing(TRACE_POINT("combine", "B")); // autotrace
        RecvTokens();
        tokens_ = 0;
        MoeTracing(TRACE_POINT("combine", "E")); // autotrace
    }

private:
    __aicore__ inline void SendTokens()
    {
        MoeTracing(TRACE_POINT("dispatch send-tokens", "B")); // autotrace
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(1);
        sent_ += tokens_;
        MoeTracing(TRACE_POINT("dispatch send-tokens", "E")); // autotrace
    }

    __aicore__ inline void RecvTokens()
    {
        MoeTracing(TRACE_POINT("combine recv-tokens", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        sent_ -= tokens_;
        MoeTracing(TRACE_POINT("combine recv-tokens", "E")); // autotrace
    }

    uint32_t tokens_ = 0;
    uint32_t sent_ = 0;
};
