// The kernel class of add_op.
#pragma once
#include "kernel_operator.h"
#include "add_op_base.h" // autotrace

class AddOp {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        x_ = x;
        y_ = y;
    }

    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing function", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < 4; groupIdx++) {
            MoeTracing(TRACE_POINT("processing moe-process", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("processing cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(1);
            MoeTracing(TRACE_POINT("processing cross-core-wait-flag", "E")); // autotrace
            Add(groupIdx);
            MoeTracing(TRACE_POINT("processing moe-process", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("processing function", "E")); // autotrace
    }

private:
    __aicore__ inline void Add(uint32_t g) { n_ += g; }

    GM_ADDR x_;
    GM_ADDR y_;
    uint32_t n_ = 0;
};
