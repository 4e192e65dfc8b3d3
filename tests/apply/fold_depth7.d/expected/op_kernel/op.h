// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        n_++;
        L2();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void L2()
    {
        MoeTracing(TRACE_POINT("processing l2", "B")); // autotrace
        n_++;
        L3();
        MoeTracing(TRACE_POINT("processing l2", "E")); // autotrace
    }

    __aicore__ inline void L3()
    {
        MoeTracing(TRACE_POINT("processing l2 l3", "B")); // autotrace
        n_++;
        L4();
        MoeTracing(TRACE_POINT("processing l2 l3", "E")); // autotrace
    }

    __aicore__ inline void L4()
    {
        MoeTracing(TRACE_POINT("processing l2 l3 l4", "B")); // autotrace
        n_++;
        L5();
        MoeTracing(TRACE_POINT("processing l2 l3 l4", "E")); // autotrace
    }

    __aicore__ inline void L5()
    {
        MoeTracing(TRACE_POINT("processing l2 l3 l4 l5", "B")); // autotrace
        n_++;
        L6();
        MoeTracing(TRACE_POINT("processing l2 l3 l4 l5", "E")); // autotrace
    }

    __aicore__ inline void L6()
    {
        MoeTracing(TRACE_POINT("processing l2 l3 l4 l5 l6", "B")); // autotrace
        n_++;
        L7();
        MoeTracing(TRACE_POINT("processing l2 l3 l4 l5 l6", "E")); // autotrace
    }

    __aicore__ inline void L7()
    {
        MoeTracing(TRACE_POINT("processing l2 l3 l4 l5 l6 l7", "B")); // autotrace
        n_++;
        L8();
        MoeTracing(TRACE_POINT("processing l2 l3 l4 l5 l6 l7", "E")); // autotrace
    }

    __aicore__ inline void L8()
    {
        L9();
    }

    __aicore__ inline void L9()
    {
        n_++;
    }

    int n_ = 0;
};
