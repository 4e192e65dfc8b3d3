// Test operator: the stages Gmm1 and Gmm2 both call Sync, which waits.
#pragma once
#include "op_base.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        Gmm1(rows_);
        Gmm2(rows_);
    }

private:
    __aicore__ inline void Gmm1(uint32_t rows)
    {
        acc_ += rows;
        Sync();
    }

    __aicore__ inline void Gmm2(uint32_t rows)
    {
        acc_ -= rows;
        Sync();
    }

    __aicore__ inline void Sync()
    {
        AscendC::CrossCoreWaitFlag(1);
        acc_ *= 2;
    }

    uint32_t rows_ = 4;
    uint32_t acc_ = 0;
};
