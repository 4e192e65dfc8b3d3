// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t stageIdx = 0; stageIdx < 2; stageIdx++) Work(stageIdx);
        n_++;
    }

private:
    __aicore__ inline void Work(uint32_t s)
    {
        n_ += s;
    }

    uint32_t n_ = 0;
};
