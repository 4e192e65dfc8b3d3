// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t expertIdx = 0; expertIdx < 4; expertIdx++) {
            for (uint32_t r = 0; r < 16; r++) {
                if (r == expertIdx) {
                    break;
                }
                if (r % 2) {
                    continue;
                }
                n_ += r;
            }
            if (n_ > 100) {
                break;
            }
        }
    }

    uint32_t n_ = 0;
};
