// Roots in the arms of a tiling-key chain where the second arm already has
// its root by hand: that one is present, the first arm still gets its own
// (a pair of the root's label in another arm is not this arm's root).
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Gather()
    {
        MoeTracing(TRACE_POINT("processing gather", "B")); // autotrace
        n_ += 2;
        MoeTracing(TRACE_POINT("processing gather", "E")); // autotrace
    }

    __aicore__ inline void Reduce()
    {
        MoeTracing(TRACE_POINT("processing reduce", "B")); // autotrace
        n_ += 1;
        MoeTracing(TRACE_POINT("processing reduce", "E")); // autotrace
    }

    __aicore__ inline void Idle()
    {
        n_ = 0;
    }

private:
    int n_ = 0;
};

extern "C" __global__ __aicore__ void op_entry(GM_ADDR x, GM_ADDR profiling)
{
    static int64_t buf[PROF_SIZE_PER_CORE];
    if (TILING_KEY_IS(1)) {
        SetMoeProfilePtr(buf);
        GetMoeProfilePtr()[0] = 1;
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Op op;
        op.Gather();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
        AscendC::GlobalTensor<int64_t> out;
        int64_t count = GetMoeProfilePtr()[0];
        (void)count;
    } else if (TILING_KEY_IS(2)) {
        SetMoeProfilePtr(buf);
        MoeTracing(TRACE_POINT("processing", "B"));
        Op op;
        op.Reduce();
        MoeTracing(TRACE_POINT("processing", "E"));
        int64_t count = GetMoeProfilePtr()[0];
        (void)count;
    } else {
        Op op;
        op.Idle();
    }
}
