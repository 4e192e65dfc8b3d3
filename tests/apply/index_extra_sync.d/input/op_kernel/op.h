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
        uint32_t expertIdx = expert_;
        if (AscendC::GetSubBlockIdx() == 0) {
            SendTokens(expertIdx);
            sent_++;
        }
        PrepareGroups();
        RunGroups();
        FinishGroups();
        AscendC::CrossCoreWaitFlag(1);
        AscendC::SyncAll<false>();
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
