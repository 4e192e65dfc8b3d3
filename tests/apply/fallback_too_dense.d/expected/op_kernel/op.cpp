// Test operator: a kernel class whose Process runs two stages in turn,
// each of two steps.
#include "op_base.h"

class KernelOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("kernel-op load", "B")); // autotrace
        Load();
        MoeTracing(TRACE_POINT("kernel-op load", "E")); // autotrace
        MoeTracing(TRACE_POINT("kernel-op compute", "B")); // autotrace
        Compute();
        MoeTracing(TRACE_POINT("kernel-op compute", "E")); // autotrace
    }

private:
    __aicore__ inline void Load()
    {
        ReadA();
        ReadB();
    }

    __aicore__ inline void Compute()
    {
        Mul();
        Add();
    }

    __aicore__ inline void ReadA() { acc_ = 1; }
    __aicore__ inline void ReadB() { acc_ *= 2; }
    __aicore__ inline void Mul() { acc_ *= 3; }
    __aicore__ inline void Add() { acc_ += 4; }

    int acc_ = 0;
};

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
    KernelOp op;
    op.Process();
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}
