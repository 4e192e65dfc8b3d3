#include "op.h"

extern "C" __global__ __aicore__ void moe_op(GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight, GM_ADDR y,
                                             GM_ADDR profilingData, GM_ADDR workspace, GM_ADDR tiling)
{
    MoeOp op;
    op.Init(x, weight, expertIds, y, profilingData, workspace, tiling);
    op.Process();
}
