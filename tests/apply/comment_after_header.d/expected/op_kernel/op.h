// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (int groupIdx = 0; groupIdx < 2; groupIdx++)/*autotrace:*/ {/*:autotrace*/ // per group
            MoeTracing(TRACE_POINT("group", "B"), groupIdx); // autotrace
            n_ += groupIdx;
            MoeTracing(TRACE_POINT("group", "E"), groupIdx); // autotrace
        } // autotrace
        if (n_ > 0)/*autotrace:*/ {/*:autotrace*/ // nothing else to do
            MoeTracing(TRACE_POINT("processing", "E")); // autotrace
            return;
        } // autotrace
        n_ = 5; // reset
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    int n_ = 0;
};
