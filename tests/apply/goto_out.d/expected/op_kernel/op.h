// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (int groupIdx = 0; groupIdx < 4; groupIdx++) {
            MoeTracing(TRACE_POINT("group", "B"), groupIdx); // autotrace
            if (groupIdx == 2) {
                MoeTracing(TRACE_POINT("group", "E"), groupIdx); // autotrace
                goto done;
            }
            n_++;
            MoeTracing(TRACE_POINT("group", "E"), groupIdx); // autotrace
        }
    done:
        n_--;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    int n_ = 0;
};
