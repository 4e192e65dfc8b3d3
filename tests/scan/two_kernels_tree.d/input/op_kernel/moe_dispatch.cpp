#include "kernel_operator.h"
#include "moe_common.h"

extern "C" __global__ __aicore__ void moe_dispatch(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    MoeDispatch op;
    op.Init(x, y, tiling);
    op.Process();
}
