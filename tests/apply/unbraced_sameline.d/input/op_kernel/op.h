// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t groupIdx = 0; groupIdx < 4; groupIdx++) {
            if (groupIdx == 1) continue;
            if (groupIdx == 3) break;
            Work(groupIdx);
        }
    }

private:
    __aicore__ inline void Work(uint32_t g)
    {
        n_ += g;
    }

    uint32_t n_ = 0;
};
