// A marker on a call that is all an #ifdef group holds: B and E both go
// before the #ifdef line, together, so that every build has both or neither.
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
#ifdef SYNC_MODE
        Gmm1();
#endif
        Prep();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Gmm1() { n_ += 1; }
    __aicore__ inline void Prep() { n_ += 2; }

    int n_ = 0;
};
