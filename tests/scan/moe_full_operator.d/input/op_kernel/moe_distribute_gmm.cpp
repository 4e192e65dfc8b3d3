/**
 * MoE 分发 + 分组矩阵乘 + 合并 (1C2V)
 */
#include "kernel_operator.h"
#include "moe_distribute_gmm.h"
#include "moe_distribute_gmm_tiling.h"

using namespace AscendC;
using namespace MoeDistributeGmm;

extern "C" __global__ __aicore__ void moe_distribute_gmm(
    GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight, GM_ADDR scale, GM_ADDR y,
    GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(MoeDistributeGmmTilingData);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(MoeDistributeGmmTilingData, tilingData, tiling);
    TPipe pipe;
    if (TILING_KEY_IS(10000)) {
        MoeDistributeGmmOp<half, false> op;
        op.Init(x, expertIds, weight, scale, y, workspace, &tilingData, &pipe);
        op.Process();
    } else if (TILING_KEY_IS(10001)) {
        MoeDistributeGmmOp<int8_t, true> op;
        op.Init(x, expertIds, weight, scale, y, workspace, &tilingData, &pipe);
        op.Process();
    }
}
