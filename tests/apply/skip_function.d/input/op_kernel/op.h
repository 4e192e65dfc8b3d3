// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Stage();
        Debug();
    }

private:
    __aicore__ inline void Stage()
    {
        AscendC::CrossCoreWaitFlag(1);
    }

    __aicore__ inline void Debug()
    {
        AscendC::CrossCoreWaitFlag(2);
    }
};
