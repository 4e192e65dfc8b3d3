// GroupedMatmulDispatchKernel: the per-core flow of the fused operator. Expert group g belongs to
// 1C2V group g % GetBlockNum(). For each of its groups:
//   AIV send core  SendCoreFunc: pack the group's tokens into the window     -> recv core
//   AIV recv core  RecvCoreFunc: wait for the window, build the gather index  -> AIC
//   AIC            GMM1 = window x weight1[g]                                  -> both AIV
//   AIV (both)     CompCoreFunc: act = relu(GMM1 * scale[g])                   -> AIC
//   AIC            GMM2 = act x weight2[g]                                     -> both AIV
//   AIV (both)     combine: y[token] = GMM2 row
#ifndef GEMM_KERNEL_GROUPED_MATMUL_DISPATCH_KERNEL_H
#define GEMM_KERNEL_GROUPED_MATMUL_DISPATCH_KERNEL_H

#include "../../moe_distribute_dispatch_gmm_base.h"
#include "../block/block_grouped_matmul.h"
#include "../../epilogue/block_epilogue_scale_relu.h"
#include "../../raw_distributed/moe_token_dispatcher.h"
#include "../../raw_distributed/moe_token_combiner.h"

class GroupedMatmulDispatchKernel {
public:
    struct Params {
        GM_ADDR x;
        GM_ADDR expertIds;
        GM_ADDR weight1;
        GM_ADDR weight2;
        GM_ADDR scale;
        GM_ADDR y;
        GM_ADDR expertTokenNums;
        GM_ADDR workspace;
        MoeDistributeDispatchGmmTilingData tiling;
    };

    CATLASS_DEVICE GroupedMatmulDispatchKernel() {}

    template <int32_t CORE_TYPE>
    CATLASS_DEVICE void operator()(const Params &params);

private:
    CATLASS_DEVICE uint32_t GroupRows(const Params &params, uint32_t groupIdx)
    {
        AscendC::GlobalTensor<int64_t> nums;
        nums.SetGlobalBuffer((__gm__ int64_t *)params.expertTokenNums);
        return (uint32_t)nums.GetValue(groupIdx);
    }

    CATLASS_DEVICE void CompCoreFunc(const Params &params, BlockEpilogueScaleRelu &epilogue,
                                     uint32_t groupIdx)
    {
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv comp-core-func", "B")); // autotrace
        const MoeDistributeDispatchGmmTilingData &t = params.tiling;
        AscendC::GlobalTensor<float> gmm1;
        AscendC::GlobalTensor<float> act;
        AscendC::GlobalTensor<float> scale;
        uint64_t offset = (uint64_t)groupIdx * t.tokenNum * t.interSize;
        gmm1.SetGlobalBuffer((__gm__ float *)(params.workspace + t.gmm1Offset) + offset);
        act.SetGlobalBuffer((__gm__ float *)(params.workspace + t.actOffset) + offset);
        scale.SetGlobalBuffer((__gm__ float *)params.scale);
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv epilogue", "B")); // autotrace
        epilogue(gmm1, act, GroupRows(params, groupIdx), scale.GetValue(groupIdx),
                 (uint32_t)AscendC::GetSubBlockIdx(), (uint32_t)AscendC::GetSubBlockNum());
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv epilogue", "E")); // autotrace
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv comp-core-func", "E")); // autotrace
    }

    AscendC::TPipe pipe_;
};

template <>
CATLASS_DEVICE void GroupedMatmulDispatchKernel::operator()<AscendC::AIC>(const Params &params)
{
    MoeTracing(TRACE_POINT("grouped-matmul-dispatch aic", "B")); // autotrace
    const MoeDistributeDispatchGmmTilingData &t = params.tiling;
    GroupedMatmulBlock<BASE_M, BASE_N, BASE_K> blockMmad;
    uint32_t maxWeight = t.hiddenSize * t.interSize;
    blockMmad.Init(&pipe_, maxWeight);
    uint32_t blockIdx = (uint32_t)AscendC::GetBlockIdx();
    uint32_t blockNum = (uint32_t)AscendC::GetBlockNum();
    AscendC::GlobalTensor<float> window;
    AscendC::GlobalTensor<float> weight1;
    AscendC::GlobalTensor<float> gmm1;
    window.SetGlobalBuffer((__gm__ float *)(params.workspace + t.windowOffset));
    weight1.SetGlobalBuffer((__gm__ float *)params.weight1);
    gmm1.SetGlobalBuffer((__gm__ float *)(params.workspace + t.gmm1Offset));
    for (uint32_t groupIdx = blockIdx; groupIdx < t.expertNum; groupIdx += blockNum) {
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aic moe-process", "B"), groupIdx); // autotrace
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aic cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(FLAG_DISPATCH_DONE);
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aic cross-core-wait-flag", "E")); // autotrace
        uint32_t rows = GroupRows(params, groupIdx);
        if (rows > 0) {
            blockMmad.LoadWeight(weight1[(uint64_t)groupIdx * maxWeight], maxWeight);
            blockMmad(window[(uint64_t)groupIdx * t.tokenNum * t.hiddenSize],
                      gmm1[(uint64_t)groupIdx * t.tokenNum * t.interSize], rows, t.interSize,
                      t.hiddenSize);
        }
        AscendC::CrossCoreSetFlag<2, PIPE_FIX>(FLAG_GMM1_DONE);
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aic moe-process", "E"), groupIdx); // autotrace
    }

    AscendC::GlobalTensor<float> act;
    AscendC::GlobalTensor<float> weight2;
    AscendC::GlobalTensor<float> gmm2;
    act.SetGlobalBuffer((__gm__ float *)(params.workspace + t.actOffset));
    weight2.SetGlobalBuffer((__gm__ float *)params.weight2);
    gmm2.SetGlobalBuffer((__gm__ float *)(params.workspace + t.gmm2Offset));
    for (uint32_t groupIdx = blockIdx; groupIdx < t.expertNum; groupIdx += blockNum) {
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aic moe-process-2", "B"), groupIdx); // autotrace
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aic cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(FLAG_ACT_DONE);
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aic cross-core-wait-flag", "E")); // autotrace
        uint32_t rows = GroupRows(params, groupIdx);
        if (rows > 0) {
            blockMmad.LoadWeight(weight2[(uint64_t)groupIdx * maxWeight], maxWeight);
            blockMmad(act[(uint64_t)groupIdx * t.tokenNum * t.interSize],
                      gmm2[(uint64_t)groupIdx * t.tokenNum * t.hiddenSize], rows, t.hiddenSize,
                      t.interSize);
        }
        AscendC::CrossCoreSetFlag<2, PIPE_FIX>(FLAG_GMM2_DONE);
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aic moe-process-2", "E"), groupIdx); // autotrace
    }
    MoeTracing(TRACE_POINT("grouped-matmul-dispatch aic", "E")); // autotrace
}

template <>
CATLASS_DEVICE void GroupedMatmulDispatchKernel::operator()<AscendC::AIV>(const Params &params)
{
    MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv", "B")); // autotrace
    const MoeDistributeDispatchGmmTilingData &t = params.tiling;
    uint32_t blockNum = (uint32_t)AscendC::GetBlockNum();
    uint32_t group = (uint32_t)(AscendC::GetBlockIdx() / AscendC::GetSubBlockNum());
    bool isSendCore = AscendC::GetSubBlockIdx() == SEND_SUB_BLOCK;

    MoeTokenDispatcher dispatcher;
    dispatcher.Init(params.x, params.expertIds, params.expertTokenNums, params.workspace, t, &pipe_);
    for (uint32_t groupIdx = group; groupIdx < t.expertNum; groupIdx += blockNum) {
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv moe-process", "B"), groupIdx); // autotrace
        if (isSendCore) {
            dispatcher.SendCoreFunc(groupIdx);
        } else {
            dispatcher.RecvCoreFunc(groupIdx);
        }
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_DISPATCH_DONE);
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv moe-process", "E"), groupIdx); // autotrace
    }

    BlockEpilogueScaleRelu epilogue;
    epilogue.Init(&pipe_, t.interSize);
    for (uint32_t groupIdx = group; groupIdx < t.expertNum; groupIdx += blockNum) {
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv moe-process-2", "B"), groupIdx); // autotrace
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(FLAG_GMM1_DONE);
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv cross-core-wait-flag", "E")); // autotrace
        CompCoreFunc(params, epilogue, groupIdx);
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_ACT_DONE);
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv moe-process-2", "E"), groupIdx); // autotrace
    }

    MoeTokenCombiner combiner;
    combiner.Init(params.y, params.workspace, t, &pipe_);
    for (uint32_t groupIdx = group; groupIdx < t.expertNum; groupIdx += blockNum) {
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv moe-process-3", "B"), groupIdx); // autotrace
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(FLAG_GMM2_DONE);
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv cross-core-wait-flag", "E")); // autotrace
        combiner.CombineFunc(groupIdx, GroupRows(params, groupIdx),
                             (uint32_t)AscendC::GetSubBlockIdx(), (uint32_t)AscendC::GetSubBlockNum());
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv moe-process-3", "E"), groupIdx); // autotrace
    }
    MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv", "E")); // autotrace
}

#endif
