#include <kernel_operator.h>
#include "../common/moe_util.h"
#include "moe_tiling_gen.h"
#include "moe_base.h"

extern "C" __global__ __aicore__ void moe(GM_ADDR x)
{
    Run(x);
}
