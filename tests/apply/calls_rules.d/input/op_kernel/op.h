// Test operator kernel class: rules that choose by what the code calls.
// WaitGroup calls CrossCoreWaitFlag and gets a function point, Accumulate
// does not; the stage loop calls SyncAll and gets a loop point, the loop
// around it does not (a nested loop's calls are not its own); the branch
// that calls CrossCoreSetFlag gets a point, the other branch does not.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t round = 0; round < 2; round++) {
            for (uint32_t stageIdx = 0; stageIdx < 3; stageIdx++) {
                Accumulate(stageIdx);
                AscendC::SyncAll<false>();
            }
            WaitGroup(round);
        }
        if (last_) {
            AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(3);
            acc_++;
        }
        if (acc_ > 8) {
            Accumulate(0);
            acc_ = 0;
        }
    }

private:
    __aicore__ inline void WaitGroup(uint32_t round)
    {
        AscendC::CrossCoreWaitFlag(round);
        acc_ += round;
    }

    __aicore__ inline void Accumulate(uint32_t v)
    {
        acc_ += v;
        last_ = acc_ > 4;
    }

    uint32_t acc_ = 0;
    bool last_ = false;
};
