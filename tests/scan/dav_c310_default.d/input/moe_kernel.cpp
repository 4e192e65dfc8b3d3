#include "kernel_operator.h"
#if defined(__DAV_C310__)
#include "arch35/moe_kernel_v35.h"
extern "C" __global__ __aicore__ void moe_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    MoeKernelV35 op;
    op.Init(x, y, tiling);
    op.Process();
}
#else
#include "arch22/moe_kernel_v22.h"
extern "C" __global__ __aicore__ void moe_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    MoeKernelV22 op;
    op.Init(x, y, tiling);
    op.Process();
    op.Flush();
}
#endif
