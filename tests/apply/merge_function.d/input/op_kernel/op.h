// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        InitState();
        Stage();
    }

private:
    __aicore__ inline void InitState()
    {
        AscendC::CrossCoreWaitFlag(1);
    }

    __aicore__ inline void Stage()
    {
        n_ = 1;
    }

    int n_ = 0;
};
