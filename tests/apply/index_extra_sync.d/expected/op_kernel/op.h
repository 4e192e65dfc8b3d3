// Test operator kernel class: index and extra on a branch and a region, sync
// on wraps. The points of each carry the rule's arguments
// (MoeTracing(id, extra, index), MoeTracing(id, index)), and a sync rule's
// points are written MoeTracing<true>(...): a pipe barrier before the record.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        uint32_t expertIdx = expert_;
        if (AscendC::GetSubBlockIdx() == 0) {
            MoeTracing(TRACE_POINT("processing send", "B"), (uint32_t)AscendC::GetSubBlockIdx(), expertIdx); // autotrace
            SendTokens(expertIdx);
            sent_++;
            MoeTracing(TRACE_POINT("processing send", "E"), (uint32_t)AscendC::GetSubBlockIdx(), expertIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("processing groups", "B"), 2, groups_); // autotrace
        PrepareGroups();
        RunGroups();
        FinishGroups();
        MoeTracing(TRACE_POINT("processing groups", "E"), 2, groups_); // autotrace
        MoeTracing<true>(TRACE_POINT("processing wait", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing<true>(TRACE_POINT("processing wait", "E")); // autotrace
        MoeTracing<true>(TRACE_POINT("processing barrier", "B"), expertIdx); // autotrace
        AscendC::SyncAll<false>();
        MoeTracing<true>(TRACE_POINT("processing barrier", "E"), expertIdx); // autotrace
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void SendTokens(uint32_t e) { sent_ += e; }
    __aicore__ inline void PrepareGroups() { groups_ = 4; }
    __aicore__ inline void RunGroups() { sent_ += groups_; }
    __aicore__ inline void FinishGroups() { groups_ = 0; }

    uint32_t expert_ = 3;
    uint32_t groups_ = 0;
    uint32_t sent_ = 0;
};
