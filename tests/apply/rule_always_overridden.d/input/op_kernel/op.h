// Test operator kernel class: rules of the operator's own that match code
// but lose every construct to a later rule (a particular one before a general
// one, a skip before a rule for the same function) are listed by plan with
// the rule that takes their constructs; a skip rule that skips is not.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Gmm1();
        Gmm2();
        LoadInput();
        Helper();
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
        AscendC::CrossCoreWaitFlag(2);
        rows_ = 0;
    }

    __aicore__ inline void LoadInput()
    {
        AscendC::CrossCoreWaitFlag(3);
        rows_++;
    }

    __aicore__ inline void Helper()
    {
        AscendC::CrossCoreWaitFlag(4);
        rows_--;
    }

    uint32_t groups_ = 4;
    uint32_t rows_ = 0;
};
