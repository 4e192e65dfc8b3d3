// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        uint32_t stageIdx = 0;
        do {
            stageIdx++;
        } while (stageIdx < 3);
        uint32_t groupIdx = 0;
        while (groupIdx < 3) {
            groupIdx++;
            if (groupIdx == 2)
                continue;
        }
    }
};
