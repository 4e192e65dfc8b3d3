// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
            n_ += groupIdx;
        }
        for (uint32_t expertIdx = 0; expertIdx < 2; expertIdx++) {
            n_ += expertIdx;
        }
        for (uint32_t stageIdx = 0; stageIdx < 2; stageIdx++) {
            n_ += stageIdx;
        }
    }

    uint32_t n_ = 0;
};
