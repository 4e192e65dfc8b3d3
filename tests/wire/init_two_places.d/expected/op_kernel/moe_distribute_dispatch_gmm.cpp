// Kernel entry of MoeDistributeDispatchGmm with two calls of the same Init that pass the outputs
// at different places: the large tiling key hands y's buffer over as the workspace and the
// workspace as y, so the profiling argument would go after argument 7 in one call and after
// argument 8 in the other.
#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm.h"

extern "C" __global__ __aicore__ void moe_distribute_dispatch_gmm(
    GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2, GM_ADDR scale, GM_ADDR y,
    GM_ADDR expertTokenNums, GM_ADDR profilingData, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MOE_TRACING_KERNEL_BEGIN(profilingData);
    GET_TILING_DATA_WITH_STRUCT(MoeDistributeDispatchGmmTilingData, tilingData, tiling);
    MoeDistributeDispatchGmm op;
    if (TILING_KEY_IS(1)) {
        op.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, workspace, &tilingData);
    } else {
        op.Init(x, expertIds, weight1, weight2, scale, workspace, y, expertTokenNums, &tilingData);
    }
    op.Process();
    MoeTracingKernelEnd();
}
