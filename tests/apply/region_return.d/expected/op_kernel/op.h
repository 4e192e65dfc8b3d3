// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        n_ = 0;
        MoeTracing(TRACE_POINT("processing middle", "B")); // autotrace
        Begin();
        if (n_ < 0) {
            MoeTracing(TRACE_POINT("processing middle", "E")); // autotrace
            MoeTracing(TRACE_POINT("processing", "E")); // autotrace
            return;
        }
        End();
        MoeTracing(TRACE_POINT("processing middle", "E")); // autotrace
        n_ = 3;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Begin()
    {
        n_ = 1;
    }

    __aicore__ inline void End()
    {
        n_ = 2;
    }

    int n_ = 0;
};
