// Test operator kernel class: leading guards stay outside the points.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        if (n_ == 0) {
            return;
        }
        if (n_ < 0)
            return;
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Stage();
        Count();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Stage()
    {
        if (n_ > 100) return;
        MoeTracing(TRACE_POINT("processing stage", "B")); // autotrace
        n_--;
        MoeTracing(TRACE_POINT("processing stage", "E")); // autotrace
    }

    // not a guard: the return does work
    __aicore__ inline int Count()
    {
        MoeTracing(TRACE_POINT("processing count", "B")); // autotrace
        if (n_ > 1) { // autotrace
            decltype(auto) autotraceRet = Fetch();
            MoeTracing(TRACE_POINT("processing count", "E")); // autotrace
            return autotraceRet; // autotrace
        } // autotrace
        MoeTracing(TRACE_POINT("processing count", "E")); // autotrace
        return 0;
    }

    __aicore__ inline int Fetch() { return n_; }
    int n_ = 3;
};
