// Test operator kernel class.
#pragma once
#include "kernel.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        if ASCEND_IS_AIC {
            kernel_.operator()<AscendC::AIC>(2);
        }
        if ASCEND_IS_AIV {
            kernel_.operator()<AscendC::AIV>(2);
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    Kernel kernel_;
};
