#pragma once
#include "kernel_operator.h"
#define LAUNCH(op) do { op.Process(); } while (0)
class MoeText {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B"));
        for (uint32_t groupIdx = 0; groupIdx < n_; ++groupIdx) {
            if ASCEND_IS_AIC {
                AicWork(groupIdx);
                continue;
            }
            AivWork(groupIdx);
        }
        MoeTracing<true>(TRACE_POINT("processing", "E"));
    }
};
