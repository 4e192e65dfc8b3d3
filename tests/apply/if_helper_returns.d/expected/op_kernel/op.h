// Test operator kernel class: a helper that returns in both branches of an
// #if; the points balance under either (the scan takes the first).
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        n_ = Pick(n_);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline int Pick(int v)
    {
        MoeTracing(TRACE_POINT("processing pick", "B")); // autotrace
#if defined(__DAV_C310__)
        if (v > 8) {
            decltype(auto) autotraceRet = Fast(v);
            MoeTracing(TRACE_POINT("processing pick", "E")); // autotrace
            return autotraceRet; // autotrace
        }
#elif defined(__DAV_M200__)
        if (v > 6) { // autotrace
            MoeTracing(TRACE_POINT("processing pick", "E")); // autotrace
            return v;
        } // autotrace
#else
        if (v > 4) {
            decltype(auto) autotraceRet = Slow(v);
            MoeTracing(TRACE_POINT("processing pick", "E")); // autotrace
            return autotraceRet; // autotrace
        }
#endif
        MoeTracing(TRACE_POINT("processing pick", "E")); // autotrace
        return v + 1;
    }

    __aicore__ inline int Fast(int v) { return v / 2; }
    __aicore__ inline int Slow(int v) { return v - 1; }
    int n_ = 0;
};
