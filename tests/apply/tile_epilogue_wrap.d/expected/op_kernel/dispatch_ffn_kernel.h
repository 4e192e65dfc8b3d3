// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: CombineV2 runs the block epilogue per block, inside a
// tile-level loop (per block of the group, no rule times it). The default
// rules give the epilogue no point there; the operator's explicit wrap and
// region rules still reach the code of the epilogue, which only that loop
// calls. (They did not: a function first reached from tile-level code was
// not walked at all.)
#pragma once
#include "dispatch_ffn_base.h"

constexpr uint16_t SYNC_AIC_AIV_FLAG = 4;

struct Params {
    uint32_t expertPerRank;
    uint32_t tokens;
};

struct Callback {
    CATLASS_DEVICE void operator()() const
    {
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNC_AIC_AIV_FLAG);
    }
};

class BlockEpilogue {
public:
    CATLASS_DEVICE void operator()(uint32_t blockM, uint32_t epilogueCoreNum, Callback &&callback = Callback{})
    {
        MoeTracing(TRACE_POINT("processing aiv moe-process epilogue-wait", "B")); // autotrace
        callback();
        MoeTracing(TRACE_POINT("processing aiv moe-process epilogue-wait", "E")); // autotrace
        uint32_t subblockIdx = AscendC::GetBlockIdx() + AscendC::GetSubBlockIdx() * AscendC::GetBlockNum();
        if (subblockIdx >= epilogueCoreNum) {
            return;
        }
        MoeTracing(TRACE_POINT("processing aiv moe-process epilogue-rows", "B")); // autotrace
        uint32_t tasksForIdx = blockM / epilogueCoreNum;
        rows_ = 0;
        for (uint32_t rowIdx = 0; rowIdx < tasksForIdx; ++rowIdx) {
            rows_ += rowIdx;
        }
        MoeTracing(TRACE_POINT("processing aiv moe-process epilogue-rows", "E")); // autotrace
    }

private:
    uint32_t rows_ = 0;
};

class DispatchFFNKernel {
public:
    template <int32_t CORE_TYPE>
    CATLASS_DEVICE void operator()(Params const &params);

    CATLASS_DEVICE void CombineV2(Params const &params, BlockEpilogue &blockEpilogue)
    {
        uint32_t aicCoreNum = AscendC::GetBlockNum();
        uint32_t startLoopIdx = AscendC::GetBlockIdx();
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            MoeTracing(TRACE_POINT("processing aiv moe-process", "B"), groupIdx); // autotrace
            uint32_t coreLoops = params.tokens / 16;
            for (uint32_t loopIdx = startLoopIdx; loopIdx < coreLoops; loopIdx += aicCoreNum) {
                blockEpilogue(16, 40);
            }
            MoeTracing(TRACE_POINT("processing aiv moe-process", "E"), groupIdx); // autotrace
        }
    }

    CATLASS_DEVICE void GMM2(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            MoeTracing(TRACE_POINT("gmm2 aic moe-process", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("gmm2 aic cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIC_AIV_FLAG);
            MoeTracing(TRACE_POINT("gmm2 aic cross-core-wait-flag", "E")); // autotrace
            MoeTracing(TRACE_POINT("gmm2 aic moe-process", "E"), groupIdx); // autotrace
        }
    }

private:
    BlockEpilogue blockEpilogue_;
};

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIC>(Params const &params)
{
    MoeTracing(TRACE_POINT("gmm2 aic", "B")); // autotrace
    GMM2(params);
    MoeTracing(TRACE_POINT("gmm2 aic", "E")); // autotrace
}

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIV>(Params const &params)
{
    MoeTracing(TRACE_POINT("processing aiv", "B")); // autotrace
    CombineV2(params, blockEpilogue_);
    MoeTracing(TRACE_POINT("processing aiv", "E")); // autotrace
}
