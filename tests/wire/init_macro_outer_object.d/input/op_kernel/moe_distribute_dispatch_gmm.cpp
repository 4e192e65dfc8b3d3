// Kernel entry of MoeDistributeDispatchGmm whose macro calls op.Init on an object the entry
// declares, of another class in each block: one Init call in the macro, two classes.
#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm.h"
#include "moe_dispatch_gather.h"

#define INIT_OP() op.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, workspace, &tilingData)

extern "C" __global__ __aicore__ void moe_distribute_dispatch_gmm(
    GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2, GM_ADDR scale, GM_ADDR y,
    GM_ADDR expertTokenNums, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(MoeDistributeDispatchGmmTilingData, tilingData, tiling);
    if (tilingData.interSize == 0) {
        MoeDispatchGather op;
        INIT_OP();
        op.Process();
    } else {
        MoeDistributeDispatchGmm op;
        INIT_OP();
        op.Process();
    }
}
