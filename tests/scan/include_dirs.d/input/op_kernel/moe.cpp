#include "kernel_operator.h"
#include "catlass/gemm/block.h"
#include <moe_shared.h>

extern "C" __global__ __aicore__ void moe(GM_ADDR x)
{
    Block b;
    b.Run(x);
}
