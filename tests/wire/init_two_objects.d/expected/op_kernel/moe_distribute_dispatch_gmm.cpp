// Kernel entry of MoeDistributeDispatchGmm with two objects named op in two blocks, of two
// classes: the dispatch alone (DispatchOnly) when there is no expert matmul, the whole kernel after it.
// Each op.Init is the Init of its own object's class, as C++ looks the name up.
#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm.h"
#include "dispatch_only.h"

extern "C" __global__ __aicore__ void moe_distribute_dispatch_gmm(
    GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2, GM_ADDR scale, GM_ADDR y,
    GM_ADDR expertTokenNums, GM_ADDR profilingData, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MOE_TRACING_KERNEL_SCOPE(profilingData);
    GET_TILING_DATA_WITH_STRUCT(MoeDistributeDispatchGmmTilingData, tilingData, tiling);
    if (tilingData.interSize == 0) {
        DispatchOnly op;
        op.Init(x, expertIds, y, expertTokenNums, profilingData, workspace);
        op.Process();
        return;
    }
    MoeDistributeDispatchGmm op;
    op.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, profilingData, workspace, &tilingData);
    op.Process();
}
