// Test operator kernel class: it waits, then runs the embedded operator.
#pragma once
#include "sub_op.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        AscendC::CrossCoreWaitFlag(1);
        sub_op(rows_);
        rows_ = 0;
    }

private:
    uint32_t rows_ = 4;
};
