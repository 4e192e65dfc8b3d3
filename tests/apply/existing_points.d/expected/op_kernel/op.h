// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("my processing", "B"));
        for (uint32_t groupIdx = 0; groupIdx < 2; groupIdx++) {
            MoeTracing(TRACE_POINT("my group", "B"), groupIdx);
            Stage();
            MoeTracing(TRACE_POINT("my group", "E"), groupIdx);
        }
        Stage();
        MoeTracing(TRACE_POINT("my processing", "E"));
    }

private:
    __aicore__ inline void Stage()
    {
        MoeTracing(TRACE_POINT("my group stage", "B")); // autotrace
        n_++;
        MoeTracing(TRACE_POINT("my group stage", "E")); // autotrace
    }

    int n_ = 0;
};
