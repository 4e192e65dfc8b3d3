// The kernel class of moe_op.
#pragma once
#include "moe_op_base.h"

class MoeOp {
public:
    __aicore__ inline void Init(GM_ADDR x)
    {
        x_ = x;
    }

    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing function", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        rows_++;
        MoeTracing(TRACE_POINT("processing function", "E")); // autotrace
    }

private:
    GM_ADDR x_ = nullptr;
    uint32_t rows_ = 0;
};
