// Kernel entry of MoeDistributeDispatchGmm, written as real entries dispatch on the tiling key:
// one Init per key in a switch, cases sharing a body (sgl-kernel-npu batch_matmul_transpose has
// 16), and keys run through a macro that declares the object and calls its Init
// (ops-transformer moe_token_permute's GENERAL_OP_IMPL form).
#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm.h"

#define RUN_DISPATCH_GMM(obj)                                                                        \
    do {                                                                                            \
        MoeDistributeDispatchGmm obj;                                                               \
        obj.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, profilingData, workspace, &tilingData); \
        obj.Process();                                                                              \
    } while (0)

extern "C" __global__ __aicore__ void moe_distribute_dispatch_gmm(
    GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2, GM_ADDR scale, GM_ADDR y,
    GM_ADDR expertTokenNums, GM_ADDR profilingData, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MOE_TRACING_KERNEL_BEGIN(profilingData);
    GET_TILING_DATA_WITH_STRUCT(MoeDistributeDispatchGmmTilingData, tilingData, tiling);
    MoeDistributeDispatchGmm opSmall;
    MoeDistributeDispatchGmm opLarge;
    switch (tilingData.tilingKey) {
        case 0b0001:
        case 0b0011:
            opSmall.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, profilingData, workspace, &tilingData);
            opSmall.Process();
            break;
        case 0b0100:
            opLarge.Init(x, expertIds, weight1, weight2, scale, y,
                         expertTokenNums, profilingData, workspace, &tilingData);
            opLarge.Process();
            break;
        default:
            break;
    }
    if (TILING_KEY_IS(8)) {
        RUN_DISPATCH_GMM(op8);
    } else if (TILING_KEY_IS(9)) {
        RUN_DISPATCH_GMM(op9);
    }
    MoeTracingKernelEnd();
}
