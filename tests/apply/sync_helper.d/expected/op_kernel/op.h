// Test operator kernel class: SyncFunc<event>() only sets and waits for an
// intra-core pipe event (calls a `skip call` rule skips). The stage's hot
// rule matches /Sync/, but a call of SyncFunc is tile-level pipe
// synchronisation like the calls it makes: it gets no point, and the plan
// says why. The cross-core wait keeps its point.
#pragma once
#include "op_base.h"

template <AscendC::HardEvent event>
__aicore__ inline void SyncFunc()
{
    AscendC::SetFlag<event>(AscendC::EVENT_ID0);
    AscendC::WaitFlag<event>(AscendC::EVENT_ID0);
}

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        CopyStage();
        rows_ = 0;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void CopyStage()
    {
        MoeTracing(TRACE_POINT("processing copy-stage", "B")); // autotrace
        MoeTracing(TRACE_POINT("processing copy-stage cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing copy-stage cross-core-wait-flag", "E")); // autotrace
        rows_++;
        SyncFunc<AscendC::HardEvent::MTE2_V>();
        rows_ *= 2;
        MoeTracing(TRACE_POINT("processing copy-stage", "E")); // autotrace
    }

    uint32_t rows_ = 0;
};
