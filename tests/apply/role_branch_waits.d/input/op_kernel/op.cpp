// Test operator: the kernel entry.
#include "op.h"

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    RoleKernel<float> op;
    op.Process();
}
