// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Run<true>();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    template <bool IsQuant>
    __aicore__ inline void Run()
    {
        MoeTracing(TRACE_POINT("run", "B")); // autotrace
        if constexpr (IsQuant) {
            MoeTracing(TRACE_POINT("run quant", "B")); // autotrace
            Quantize();
            MoeTracing(TRACE_POINT("run quant", "E")); // autotrace
        } else if constexpr (sizeof(int) == 8) {
            n_ = 8;
        } else {
            n_ = 0;
        }
        if constexpr (!IsQuant) { // autotrace
            MoeTracing(TRACE_POINT("run quant-2", "B")); // autotrace
            n_++;
            MoeTracing(TRACE_POINT("run quant-2", "E")); // autotrace
        } // autotrace
        MoeTracing(TRACE_POINT("run", "E")); // autotrace
    }

    __aicore__ inline void Quantize()
    {
        n_ = 1;
    }

    int n_ = 0;
};
