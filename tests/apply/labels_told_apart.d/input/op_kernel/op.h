// Test operator: three waits in a row, and a tiling-key switch whose cases
// each have a cube branch.
#pragma once
#include "op_base.h"

enum { MM1 = 1, MM2 = 2 };

__aicore__ void WaitFlagDev(int flag); // a library function, defined elsewhere
__aicore__ inline bool IsCube() { return true; }

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        WaitFlagDev(MM1);
        WaitFlagDev(MM2);
        WaitFlagDev(rows_ + 1);
        switch (key_) {
        case 0: {
            if (IsCube()) {
                acc_ += 1;
            }
            break;
        }
        case 1: {
            if (IsCube()) {
                acc_ += 2;
            }
            break;
        }
        default:
            break;
        }
    }

private:
    uint32_t rows_ = 4;
    uint32_t key_ = 0;
    uint32_t acc_ = 0;
};
