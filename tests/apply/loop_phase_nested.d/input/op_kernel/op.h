// Test operator kernel class: stage loops inside a round loop.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t round = 0; round < 2; round++) {
            for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
                AscendC::CrossCoreWaitFlag(1);
            }
            for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
                AscendC::CrossCoreWaitFlag(2);
            }
        }
    }
};
