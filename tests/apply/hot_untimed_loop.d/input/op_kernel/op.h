// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t tokenIdx = 0; tokenIdx < 8; tokenIdx++) {
            AscendC::CrossCoreWaitFlag(1);
            Add(tokenIdx);
        }
        AscendC::CrossCoreWaitFlag(2);
    }

    __aicore__ inline void Add(uint32_t i) { sum_ += i; }
    uint32_t sum_ = 0;
};
