// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t stageIdx = 0; stageIdx < 3; stageIdx++) {
            switch (stageIdx) {
            case 0: n_++; continue;
            default: n_--; break;
            }
            n_ *= 2;
        }
    }

    int n_ = 0;
};
