// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        if (n_ == 0) { // autotrace
            MoeTracing(TRACE_POINT("processing sync", "B")); // autotrace
            Sync();
            MoeTracing(TRACE_POINT("processing sync", "E")); // autotrace
        } // autotrace
        if (n_ == 1) { // autotrace split
            MoeTracing(TRACE_POINT("processing sync-2", "B")); // autotrace
            Sync();
            MoeTracing(TRACE_POINT("processing sync-2", "E")); // autotrace
        } // autotrace
        for (int i = 0; i < 2; i++) { // autotrace
            MoeTracing(TRACE_POINT("processing sync-3", "B")); // autotrace
            Sync();
            MoeTracing(TRACE_POINT("processing sync-3", "E")); // autotrace
        } // autotrace
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Sync()
    {
        n_++;
    }

    int n_ = 0;
};
