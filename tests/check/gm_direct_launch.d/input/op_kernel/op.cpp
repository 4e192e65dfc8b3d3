#include "op.h"

/* Launched by op_host/moe_op_launch.cpp itself: the OpDef describes the
 * tiling context (three tensors), the launch passes five. */
extern "C" __global__ __aicore__ void moe_op(GM_ADDR x, GM_ADDR expertIds, GM_ADDR state, GM_ADDR y,
                                             GM_ADDR stateOut, GM_ADDR profilingData, GM_ADDR workspace,
                                             GM_ADDR tiling)
{
    MoeOp op;
    op.Init(x, expertIds, state, y, profilingData, workspace, tiling);
    op.Process();
}
