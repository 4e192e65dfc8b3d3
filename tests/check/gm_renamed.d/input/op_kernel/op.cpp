#include "op.h"

extern "C" __global__ __aicore__ void moe_op(GM_ADDR tokens, GM_ADDR expertIds, GM_ADDR permutedWeight, GM_ADDR y,
                                             GM_ADDR profilingData, GM_ADDR workspace, GM_ADDR tiling)
{
    MoeOp op;
    op.Init(tokens, permutedWeight, expertIds, y, profilingData, workspace, tiling);
    op.Process();
}
