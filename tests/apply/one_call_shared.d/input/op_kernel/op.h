// Test operator: RunA's body is one call of A, RunB's of B; Process also
// calls A and B directly.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        RunA();
        A(rows_);
        B(rows_);
        RunB();
    }

private:
    __aicore__ inline void RunA()
    {
        A(rows_);
    }

    __aicore__ inline void RunB()
    {
        B(rows_);
    }

    __aicore__ inline void A(uint32_t rows)
    {
        AscendC::CrossCoreWaitFlag(1);
        acc_ += rows;
    }

    __aicore__ inline void B(uint32_t rows)
    {
        AscendC::CrossCoreWaitFlag(2);
        acc_ -= rows;
    }

    uint32_t rows_ = 4;
    uint32_t acc_ = 0;
};
