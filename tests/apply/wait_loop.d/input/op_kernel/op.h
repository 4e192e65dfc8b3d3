// Test operator kernel class: a loop that only waits is timed as a whole,
// once, not per iteration; a loop that also computes is not timed.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Compute();
        for (uint32_t g = done_; g < 8; g++) {
            AscendC::CrossCoreWaitFlag(g);
        }
        for (uint32_t i = 0; i < 8; i++) {
            AscendC::CrossCoreWaitFlag(i);
            Compute();
        }
    }

private:
    __aicore__ inline void Compute() { done_++; }
    uint32_t done_ = 0;
};
