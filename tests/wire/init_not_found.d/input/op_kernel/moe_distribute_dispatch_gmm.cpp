// Kernel entry of MoeDistributeDispatchGmm that runs, on one tiling key, a fallback kernel class
// whose Init lives in a library header outside the kernel directory: that Init cannot be given
// the profiling parameter, so neither is the class Init next to it (the same call could reach
// either through a macro or a template), and every Init compiles as it did.
#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm.h"
#include "moe_fallback/dispatch_gmm_fallback.h"

extern "C" __global__ __aicore__ void moe_distribute_dispatch_gmm(
    GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2, GM_ADDR scale, GM_ADDR y,
    GM_ADDR expertTokenNums, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(MoeDistributeDispatchGmmTilingData, tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        MoeDistributeDispatchGmm op;
        op.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, workspace, &tilingData);
        op.Process();
    } else {
        MoeFallback::DispatchGmmFallback fallback;
        fallback.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, workspace, &tilingData);
        fallback.Process();
    }
}
