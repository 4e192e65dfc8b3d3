// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t stageIdx = 0; stageIdx < 3; stageIdx++) {
            switch (stageIdx) {
            case 0:
                n_ += 1;
                break;
            case 1: n_ += 2; continue;
            default:
                break;
            }
            n_ *= 2;
        }
    }

    uint32_t n_ = 0;
};
