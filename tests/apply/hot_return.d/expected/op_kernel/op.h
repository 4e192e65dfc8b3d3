// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        n_ = Fetch(1);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline int Fetch(int v)
    {
        MoeTracing(TRACE_POINT("fetch", "B")); // autotrace
        if (v > 0) {
            MoeTracing(TRACE_POINT("fetch wait", "B")); // autotrace
            decltype(auto) autotraceRet = WaitValue(v);
            MoeTracing(TRACE_POINT("fetch wait", "E")); // autotrace
            MoeTracing(TRACE_POINT("fetch", "E")); // autotrace
            return autotraceRet; // autotrace
        }
        MoeTracing(TRACE_POINT("fetch", "E")); // autotrace
        return 0;
    }

    __aicore__ inline int WaitValue(int v)
    {
        return v;
    }

    int n_ = 0;
};
