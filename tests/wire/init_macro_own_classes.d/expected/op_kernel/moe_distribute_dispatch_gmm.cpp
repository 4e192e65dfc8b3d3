// Kernel entry of MoeDistributeDispatchGmm with two macros, each declaring the kernel object
// with a class of its own: the Init call in each macro is its class's Init.
#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm.h"
#include "moe_dispatch_gather.h"

#define RUN_GATHER()                                                                             \
    do {                                                                                         \
        MoeDispatchGather op;                                                                    \
        op.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, profilingData, workspace, &tilingData); \
        op.Process();                                                                            \
    } while (0)

#define RUN_GMM()                                                                                \
    do {                                                                                         \
        MoeDistributeDispatchGmm op;                                                             \
        op.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, profilingData, workspace, &tilingData); \
        op.Process();                                                                            \
    } while (0)

extern "C" __global__ __aicore__ void moe_distribute_dispatch_gmm(
    GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2, GM_ADDR scale, GM_ADDR y,
    GM_ADDR expertTokenNums, GM_ADDR profilingData, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MOE_TRACING_KERNEL_BEGIN(profilingData);
    GET_TILING_DATA_WITH_STRUCT(MoeDistributeDispatchGmmTilingData, tilingData, tiling);
    if (tilingData.interSize == 0) {
        RUN_GATHER();
    } else {
        RUN_GMM();
    }
    MoeTracingKernelEnd();
}
