// The kernel class of add_op.
#pragma once
#include "kernel_operator.h"

class AddOp {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        x_ = x;
        y_ = y;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t groupIdx = 0; groupIdx < 4; groupIdx++) {
            AscendC::CrossCoreWaitFlag(1);
            Add(groupIdx);
        }
    }

private:
    __aicore__ inline void Add(uint32_t g) { n_ += g; }

    GM_ADDR x_;
    GM_ADDR y_;
    uint32_t n_ = 0;
};
