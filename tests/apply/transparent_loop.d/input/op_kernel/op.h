// Test operator kernel class: a loop a loop rule would time, made
// transparent. It gets no point, and it is not tile level either: the hot
// calls inside it get their points, in the root's, as the code around the
// loop would (a loop without a point would time nothing inside). The same
// for a function a function rule would time.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t expertIdx = 0; expertIdx < experts_; ++expertIdx) {
            AscendC::CrossCoreWaitFlag(1);
            rows_ += expertIdx;
        }
        Combine();
    }

private:
    __aicore__ inline void Combine()
    {
        rows_ = 0;
        AscendC::SyncAll<true>();
    }

    uint32_t experts_ = 4;
    uint32_t rows_ = 0;
};
