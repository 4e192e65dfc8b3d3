// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        total_ = Sum(4);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline int Sum(int n)
    {
        MoeTracing(TRACE_POINT("processing sum", "B")); // autotrace
        if (n <= 1) {
            decltype(auto) autotraceRet = Load(n);
            MoeTracing(TRACE_POINT("processing sum", "E")); // autotrace
            return autotraceRet; // autotrace
        }
        decltype(auto) autotraceRet = Load(n) + Sum(n - 1);
        MoeTracing(TRACE_POINT("processing sum", "E")); // autotrace
        return autotraceRet; // autotrace
    }

    __aicore__ inline int Load(int i)
    {
        return i * 2;
    }

    int total_ = 0;
};
