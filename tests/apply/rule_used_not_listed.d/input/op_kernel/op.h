// Test operator kernel class: the code of rule_always_overridden, under its
// rules without the later ones that took their constructs: each rule now
// decides, and plan lists none as overridden or as matching nothing.
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
