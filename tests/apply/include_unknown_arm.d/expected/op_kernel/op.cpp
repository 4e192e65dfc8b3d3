// Test operator entry.
#include "op.h"

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    Op op;
    op.Process();
}
