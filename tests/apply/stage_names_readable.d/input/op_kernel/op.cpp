// Test operator: the kernel entry.
#include "op.h"

extern "C" __global__ __aicore__ void op(GM_ADDR x, GM_ADDR tiling)
{
    DispatchGroupedMatmulPipelinedKernel<float> op;
    op.Init(x, reinterpret_cast<TilingData *>(tiling));
    op.Process();
}
