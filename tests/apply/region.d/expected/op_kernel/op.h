// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        n_ = 0;
        MoeTracing(TRACE_POINT("dispatch-gmm1", "B")); // autotrace
        Dispatcher dispatcher;
        dispatcher.Prepare();
        n_ += 1;
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("dispatch-gmm1", "E")); // autotrace
        n_ += 2;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    struct Dispatcher {
        __aicore__ inline void Prepare()
        {
        }
    };

    int n_ = 0;
};
