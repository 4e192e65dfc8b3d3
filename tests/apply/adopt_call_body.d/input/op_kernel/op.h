// A hand pair around the one call of a function the rules time in its body:
// the same slice, present under the hand label; what the body holds is
// planned inside it.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B"));
        Prepare();
        MoeTracing(TRACE_POINT("combine by hand", "B"));
        Combine(3);
        MoeTracing(TRACE_POINT("combine by hand", "E"));
        MoeTracing(TRACE_POINT("processing", "E"));
    }

private:
    __aicore__ inline void Prepare()
    {
        n_ = 0;
    }

    __aicore__ inline void Combine(uint32_t groups)
    {
        for (uint32_t groupIdx = 0; groupIdx < groups; groupIdx++) {
            Step(groupIdx);
        }
        Step(0);
    }

    __aicore__ inline void Step(uint32_t g)
    {
        n_ += g;
    }

    int n_ = 0;
};
