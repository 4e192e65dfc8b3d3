// Test operator: a kernel class whose Process runs two stages in turn,
// each of two steps.
#include "op_base.h"

class KernelOp {
public:
    __aicore__ inline void Process()
    {
        Load();
        Compute();
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
    KernelOp op;
    op.Process();
}
