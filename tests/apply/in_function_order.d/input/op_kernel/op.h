// Test operator: Gmm2 runs before Gmm1, and both call Step.
#pragma once
#include "op_base.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        Gmm2(rows_);
        Gmm1(rows_);
    }

private:
    __aicore__ inline void Gmm1(uint32_t rows)
    {
        Step(rows);
        acc_ += rows;
    }

    __aicore__ inline void Gmm2(uint32_t rows)
    {
        Step(rows);
        acc_ -= rows;
    }

    __aicore__ inline void Step(uint32_t rows)
    {
        AscendC::CrossCoreWaitFlag(1);
        acc_ *= rows;
    }

    uint32_t rows_ = 4;
    uint32_t acc_ = 0;
};
