// Test operator kernel class: RunGmm's body is one call of Gmm, and both
// match a function rule. Both points would time the same interval, so
// there is one (RunGmm's) and Gmm is merged into it.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        RunGmm();
        rows_ = 0;
    }

private:
    __aicore__ inline void RunGmm()
    {
        Gmm(rows_);
    }

    __aicore__ inline void Gmm(uint32_t rows)
    {
        AscendC::CrossCoreWaitFlag(1);
        acc_ += rows;
    }

    uint32_t rows_ = 4;
    uint32_t acc_ = 0;
};
