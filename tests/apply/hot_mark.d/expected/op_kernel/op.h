// A marker (`hot /RE/ #N "LABEL" mark`): B and E together right before the
// second call of Gmm1, the instant it starts; a second apply finds it there.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Gmm1();
        Prep();
        MoeTracing(TRACE_POINT("processing second gmm1 starts", "B")); // autotrace
        MoeTracing(TRACE_POINT("processing second gmm1 starts", "E")); // autotrace
        Gmm1();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Gmm1() { n_ += 1; }
    __aicore__ inline void Prep() { n_ += 2; }

    int n_ = 0;
};
