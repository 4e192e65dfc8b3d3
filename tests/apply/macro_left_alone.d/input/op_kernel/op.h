// Test operator kernel class.
#pragma once
#include "op_base.h"

#define WAIT_AND_COUNT(x)                  \
    do {                                   \
        AscendC::CrossCoreWaitFlag(1);     \
        (x)++;                             \
    } while (0)

class Op {
public:
    __aicore__ inline void Process()
    {
        WAIT_AND_COUNT(n_);
        for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
            WAIT_AND_COUNT(groupIdx);
        }
    }

    uint32_t n_ = 0;
};
