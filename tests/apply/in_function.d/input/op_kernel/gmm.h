// Test stages: Gmm1 and Gmm2 have the same row loop; `in function /::Gmm1$/`
// gives only Gmm1's a point.
#pragma once
#include "op_base.h"

class Gmm {
public:
    __aicore__ inline void Gmm1(uint32_t rows)
    {
        for (uint32_t i = 0; i < rows; i++) {
            AscendC::CrossCoreWaitFlag(1);
            acc_ += i;
        }
    }

    __aicore__ inline void Gmm2(uint32_t rows)
    {
        for (uint32_t i = 0; i < rows; i++) {
            AscendC::CrossCoreWaitFlag(2);
            acc_ -= i;
        }
    }

private:
    uint32_t acc_ = 0;
};
