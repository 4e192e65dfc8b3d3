// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t tokenIdx = 0; tokenIdx < 8; tokenIdx++) {
            AscendC::CrossCoreWaitFlag(1);
        }
        AscendC::CrossCoreWaitFlag(2);
    }
};
