// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < 8; groupIdx++) {
            MoeTracing(TRACE_POINT("processing group", "B"), groupIdx); // autotrace
            if (Skip(groupIdx)) {
                MoeTracing(TRACE_POINT("processing group", "E"), groupIdx); // autotrace
                continue;
            }
            if (groupIdx > 5) {
                MoeTracing(TRACE_POINT("processing group", "E"), groupIdx); // autotrace
                break;
            }
            n_ += groupIdx;
            MoeTracing(TRACE_POINT("processing group", "E"), groupIdx); // autotrace
            continue;
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline bool Skip(uint32_t g)
    {
        return g % 2 == 1;
    }

    uint32_t n_ = 0;
};
