// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t groupIdx = 0; groupIdx < 8; groupIdx++) {
            if (Skip(groupIdx)) {
                continue;
            }
            if (groupIdx > 5) {
                break;
            }
            n_ += groupIdx;
            continue;
        }
    }

private:
    __aicore__ inline bool Skip(uint32_t g)
    {
        return g % 2 == 1;
    }

    uint32_t n_ = 0;
};
