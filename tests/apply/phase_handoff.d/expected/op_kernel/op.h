// Test operator kernel class: a stage named for two stages in turn
// (DispatchAndCombine) names the phase of its body's points after the first
// ("dispatch ...") up to the statement that hands the work over, the first
// that calls a function named for the second (CombineTokens), and after the
// second ("combine ...") from there on; its own point keeps its whole name.
// A name with no such call in its body (GatherAndReduce) keeps one phase.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        DispatchAndCombine();
        GatherAndReduce();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    __aicore__ inline void DispatchAndCombine()
    {
        MoeTracing(TRACE_POINT("dispatch-and-combine", "B")); // autotrace
        MoeTracing(TRACE_POINT("dispatch cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("dispatch cross-core-wait-flag", "E")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < n_; ++groupIdx) {
            MoeTracing(TRACE_POINT("dispatch moe-process", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("dispatch cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(2);
            MoeTracing(TRACE_POINT("dispatch cross-core-wait-flag", "E")); // autotrace
            n_--;
            MoeTracing(TRACE_POINT("dispatch moe-process", "E"), groupIdx); // autotrace
        }
        AscendC::SyncAll();
        CombineTokens();
        MoeTracing(TRACE_POINT("combine cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(3);
        MoeTracing(TRACE_POINT("combine cross-core-wait-flag", "E")); // autotrace
        MoeTracing(TRACE_POINT("dispatch-and-combine", "E")); // autotrace
    }

    __aicore__ inline void GatherAndReduce()
    {
        MoeTracing(TRACE_POINT("gather-and-reduce", "B")); // autotrace
        MoeTracing(TRACE_POINT("gather-and-reduce cross-core-wait-flag 4", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(4);
        MoeTracing(TRACE_POINT("gather-and-reduce cross-core-wait-flag 4", "E")); // autotrace
        n_++;
        MoeTracing(TRACE_POINT("gather-and-reduce cross-core-wait-flag 5", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(5);
        MoeTracing(TRACE_POINT("gather-and-reduce cross-core-wait-flag 5", "E")); // autotrace
        MoeTracing(TRACE_POINT("gather-and-reduce", "E")); // autotrace
    }

    __aicore__ inline void CombineTokens()
    {
        MoeTracing(TRACE_POINT("combine combine-tokens", "B")); // autotrace
        for (uint32_t expertIdx = 0; expertIdx < n_; ++expertIdx) {
            MoeTracing(TRACE_POINT("combine expert", "B"), expertIdx); // autotrace
            n_ += expertIdx;
            MoeTracing(TRACE_POINT("combine expert", "E"), expertIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("combine combine-tokens", "E")); // autotrace
    }

    uint32_t n_ = 4;
};
