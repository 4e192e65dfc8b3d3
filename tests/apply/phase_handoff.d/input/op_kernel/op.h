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
        DispatchAndCombine();
        GatherAndReduce();
    }

    __aicore__ inline void DispatchAndCombine()
    {
        AscendC::CrossCoreWaitFlag(1);
        for (uint32_t groupIdx = 0; groupIdx < n_; ++groupIdx) {
            AscendC::CrossCoreWaitFlag(2);
            n_--;
        }
        AscendC::SyncAll();
        CombineTokens();
        AscendC::CrossCoreWaitFlag(3);
    }

    __aicore__ inline void GatherAndReduce()
    {
        AscendC::CrossCoreWaitFlag(4);
        n_++;
        AscendC::CrossCoreWaitFlag(5);
    }

    __aicore__ inline void CombineTokens()
    {
        for (uint32_t expertIdx = 0; expertIdx < n_; ++expertIdx) {
            n_ += expertIdx;
        }
    }

    uint32_t n_ = 4;
};
