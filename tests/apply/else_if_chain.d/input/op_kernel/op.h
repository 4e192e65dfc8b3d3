// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        uint32_t aivIdx = AscendC::GetSubBlockIdx();
        if (aivIdx == 0) {
            n_ = 1;
        } else if (aivIdx == 1) {
            n_ = 2;
            return;
        } else {
            n_ = 3;
        }
    }

    int n_ = 0;
};
