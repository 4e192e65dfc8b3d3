// The same kernel for another SoC (a variant the build picks by file): its Init call hands
// the workspace over in y's place and y in the workspace's, so it cannot take the profiling
// argument after the outputs. The class header is shared with the other entry: its Init is
// given the parameter for both or for neither.
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
    op.Init(x, expertIds, weight1, weight2, scale, workspace, y, expertTokenNums, &tilingData);
    op.Process();
    MoeTracingKernelEnd();
}
