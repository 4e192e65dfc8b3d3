// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t groupIdx = 0; groupIdx < 4; groupIdx++)
            Work(groupIdx);
        if (n_ > 2)
            return;
        while (n_ < 10)
            n_++;
    }

private:
    __aicore__ inline void Work(uint32_t g)
    {
        n_ += g;
    }

    uint32_t n_ = 0;
};
