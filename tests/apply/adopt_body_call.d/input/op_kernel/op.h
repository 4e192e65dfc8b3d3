// A call the rules wrap, of a function called once whose whole body a hand
// pair times: the same slice, present under the hand label. Gather is called
// twice: its body's pair is not the slice of either call.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Gather(1);
        Reduce(2);
        Gather(3);
    }

private:
    __aicore__ inline void Reduce(uint32_t k)
    {
        uint32_t twice = k * 2;
        MoeTracing(TRACE_POINT("reduce by hand", "B"));
        Step(twice);
        Step(k);
        MoeTracing(TRACE_POINT("reduce by hand", "E"));
    }

    __aicore__ inline void Gather(uint32_t k)
    {
        MoeTracing(TRACE_POINT("gather by hand", "B"));
        Step(k);
        MoeTracing(TRACE_POINT("gather by hand", "E"));
    }

    __aicore__ inline void Step(uint32_t g)
    {
        n_ += g;
    }

    int n_ = 0;
};
