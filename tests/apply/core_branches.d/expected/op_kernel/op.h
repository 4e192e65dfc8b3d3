// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        if ASCEND_IS_AIC {
            MoeTracing(TRACE_POINT("processing aic", "B")); // autotrace
            n_++;
            Cube();
            MoeTracing(TRACE_POINT("processing aic", "E")); // autotrace
        }
        if ASCEND_IS_AIV {
            MoeTracing(TRACE_POINT("processing aiv", "B")); // autotrace
            n_++;
            Vector();
            MoeTracing(TRACE_POINT("processing aiv", "E")); // autotrace
        }
        if (g_coreType == AscendC::AIC) {
            Cube();
        } else {
            Vector();
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Cube()
    {
        MoeTracing(TRACE_POINT("cube aic", "B")); // autotrace
        MoeTracing(TRACE_POINT("cube aic sync", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("cube aic sync", "E")); // autotrace
        MoeTracing(TRACE_POINT("cube aic", "E")); // autotrace
    }

    __aicore__ inline void Vector()
    {
        MoeTracing(TRACE_POINT("vector aiv", "B")); // autotrace
        MoeTracing(TRACE_POINT("vector aiv sync", "B")); // autotrace
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(1);
        MoeTracing(TRACE_POINT("vector aiv sync", "E")); // autotrace
        MoeTracing(TRACE_POINT("vector aiv", "E")); // autotrace
    }

    int n_ = 0;
};
