// A region from after a named call to another (`region after /RE/ #N to ...`):
// the statements between the first Gmm1() and Finish(), neither call timed
// by it; the second Gmm1() starts nothing.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Gmm1();
        MoeTracing(TRACE_POINT("processing between", "B")); // autotrace
        Prep();
        Compute();
        MoeTracing(TRACE_POINT("processing between", "E")); // autotrace
        Finish();
        Gmm1();
        Prep();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Gmm1() { n_ += 1; }
    __aicore__ inline void Prep() { n_ += 2; }
    __aicore__ inline void Compute() { n_ *= 2; }
    __aicore__ inline void Finish() { n_ -= 1; }

    int n_ = 0;
};
