// Test operator: the kernel entry.
#include "op.h"
extern "C" __global__ __aicore__ void moe_shallow(GM_ADDR x, GM_ADDR y)
{
    MoeShallowKernel<float> op;
    op.Init(x, y);
    op.Process();
}
