// A branch rule that times only the else arm (`branch /RE/ else "LABEL"`):
// the fast path gets no point, the slow path does.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        if (n_ == 0) {
            Load();
        } else {
            MoeTracing(TRACE_POINT("processing slow path", "B")); // autotrace
            Load();
            Compute();
            MoeTracing(TRACE_POINT("processing slow path", "E")); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Load() { n_ += 1; }
    __aicore__ inline void Compute() { n_ *= 2; }

    int n_ = 0;
};
