#include "op.h"

/* The kernel names its tensors x, y, z; the OpDef x1, x2, y: 'y' is the
 * OpDef's output name but sits at its second input, and no parameter is
 * named x2: a rename by position, not two tensors out of order. */
extern "C" __global__ __aicore__ void moe_op(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR profilingData,
                                             GM_ADDR workspace, GM_ADDR tiling)
{
    MoeOp op;
    op.Init(x, y, z, profilingData, workspace, tiling, tiling);
    op.Process();
}
