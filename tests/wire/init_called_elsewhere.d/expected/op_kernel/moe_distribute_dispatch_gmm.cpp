// Kernel entry of MoeDistributeDispatchGmm; a helper of the kernel (moe_rerun.h) calls the same
// Init itself, where no profiling tensor is at hand: the Init is given no parameter.
#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm.h"
#include "moe_rerun.h"

extern "C" __global__ __aicore__ void moe_distribute_dispatch_gmm(
    GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2, GM_ADDR scale, GM_ADDR y,
    GM_ADDR expertTokenNums, GM_ADDR profilingData, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MOE_TRACING_KERNEL_BEGIN(profilingData);
    GET_TILING_DATA_WITH_STRUCT(MoeDistributeDispatchGmmTilingData, tilingData, tiling);
    MoeDistributeDispatchGmm op;
    op.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, workspace, &tilingData);
    op.Process();
    MoeTracingKernelEnd();
}
