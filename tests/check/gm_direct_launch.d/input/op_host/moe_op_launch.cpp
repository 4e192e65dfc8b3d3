// The host function that launches moe_op itself.
#include "aclrtlaunch_moe_op.h"

void moe_op_run(const at::Tensor &x, const at::Tensor &ids, at::Tensor &state, at::Tensor &y, at::Tensor &prof)
{
    at::Tensor workspace, tiling;
    EXEC_KERNEL_CMD(moe_op, 8, x, ids, state, y, state, prof, workspace, tiling);
}
