#include "op.h"

/* The kernel of another operator built from this file (its OpDef lives in
 * another directory): more tensors than MoeOp declares, not checked
 * against MoeOp's OpDef. */
extern "C" __global__ __aicore__ void moe_op_FIAS(GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight, GM_ADDR bias,
                                                  GM_ADDR scale, GM_ADDR y, GM_ADDR lse, GM_ADDR profilingData,
                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    MoeOp op;
    op.Init(x, expertIds, weight, y, profilingData, workspace, tiling);
    op.Process();
}

extern "C" __global__ __aicore__ void moe_op(GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight, GM_ADDR y,
                                             GM_ADDR profilingData, GM_ADDR workspace, GM_ADDR tiling)
{
    MoeOp op;
    op.Init(x, expertIds, weight, y, profilingData, workspace, tiling);
    op.Process();
}
