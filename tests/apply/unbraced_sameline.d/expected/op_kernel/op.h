// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < 4; groupIdx++) {
            MoeTracing(TRACE_POINT("group", "B"), groupIdx); // autotrace
            if (groupIdx == 1) { // autotrace split
                MoeTracing(TRACE_POINT("group", "E"), groupIdx); // autotrace
                continue;
            } // autotrace
            if (groupIdx == 3) { // autotrace split
                MoeTracing(TRACE_POINT("group", "E"), groupIdx); // autotrace
                break;
            } // autotrace
            Work(groupIdx);
            MoeTracing(TRACE_POINT("group", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Work(uint32_t g)
    {
        n_ += g;
    }

    uint32_t n_ = 0;
};
