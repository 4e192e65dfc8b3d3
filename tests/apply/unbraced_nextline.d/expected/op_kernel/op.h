// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < 4; groupIdx++) { // autotrace
            MoeTracing(TRACE_POINT("loop group-idx", "B")); // autotrace
            Work(groupIdx);
            MoeTracing(TRACE_POINT("loop group-idx", "E")); // autotrace
        } // autotrace
        if (n_ > 2) { // autotrace
            MoeTracing(TRACE_POINT("processing", "E")); // autotrace
            return;
        } // autotrace
        while (n_ < 10) { // autotrace
            MoeTracing(TRACE_POINT("loop", "B")); // autotrace
            n_++;
            MoeTracing(TRACE_POINT("loop", "E")); // autotrace
        } // autotrace
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Work(uint32_t g)
    {
        n_ += g;
    }

    uint32_t n_ = 0;
};
