// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
            AscendC::CrossCoreWaitFlag(1);
        }
        for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
            AscendC::CrossCoreWaitFlag(2);
        }
    }
};
