// Test operator kernel class: `phase "{name}" function /::Gmm\d$/` names the
// phase of each GEMM stage after the function (Gmm1 -> "gmm1"); the labels
// of the stage, of its loop and of the wait in the helper it calls carry it.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Gmm1();
        Gmm2();
    }

private:
    __aicore__ inline void Gmm1()
    {
        for (uint32_t groupIdx = 0; groupIdx < groups_; groupIdx++) {
            AscendC::CrossCoreWaitFlag(1);
            rows_ += groupIdx;
        }
    }

    __aicore__ inline void Gmm2()
    {
        LoadInput();
        rows_ = 0;
    }

    __aicore__ inline void LoadInput()
    {
        AscendC::CrossCoreWaitFlag(2);
        rows_++;
    }

    uint32_t groups_ = 4;
    uint32_t rows_ = 0;
};
