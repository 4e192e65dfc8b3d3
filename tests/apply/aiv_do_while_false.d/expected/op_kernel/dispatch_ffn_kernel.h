// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: the AIV specialisation's body is a do { ... } while
// (false) that the cores without tokens leave early with break. It runs
// once: a block, not a loop, and the default rules see what is inside it
// (the send and the receive are hot calls). Taken as a loop, it was a loop
// without a rule that calls no function a rule times: tile level, and
// nothing inside it had a point.
#pragma once
#include "dispatch_ffn_base.h"

constexpr uint16_t SYNC_AIC_AIV_FLAG = 4;
constexpr uint16_t SYNC_AIV_AIC_FLAG = 6;

struct Params {
    uint32_t expertPerRank;
    uint32_t tokens;
};

class DispatchFFNKernel {
public:
    template <int32_t CORE_TYPE>
    CATLASS_DEVICE void operator()(Params const &params);

    CATLASS_DEVICE void GMM1(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            MoeTracing(TRACE_POINT("gmm1 aic moe-process", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("gmm1 aic cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIV_AIC_FLAG);
            MoeTracing(TRACE_POINT("gmm1 aic cross-core-wait-flag", "E")); // autotrace
            rows_ += groupIdx;
            MoeTracing(TRACE_POINT("gmm1 aic moe-process", "E"), groupIdx); // autotrace
        }
        AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNC_AIC_AIV_FLAG);
    }

    CATLASS_DEVICE void SendTokens(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            MoeTracing(TRACE_POINT("send-tokens aiv moe-process", "B"), groupIdx); // autotrace
            rows_ += params.tokens;
            AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNC_AIV_AIC_FLAG);
            MoeTracing(TRACE_POINT("send-tokens aiv moe-process", "E"), groupIdx); // autotrace
        }
    }

    CATLASS_DEVICE void RecvTokens(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            MoeTracing(TRACE_POINT("recv-tokens aiv moe-process", "B"), groupIdx); // autotrace
            rows_ -= params.tokens;
            MoeTracing(TRACE_POINT("recv-tokens aiv moe-process", "E"), groupIdx); // autotrace
        }
    }

private:
    uint32_t rows_ = 0;
};

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIC>(Params const &params)
{
    MoeTracing(TRACE_POINT("gmm1 aic", "B")); // autotrace
    GMM1(params);
    MoeTracing(TRACE_POINT("gmm1 aic", "E")); // autotrace
}

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIV>(Params const &params)
{
    MoeTracing(TRACE_POINT("processing aiv", "B")); // autotrace
    do {
        if (params.tokens == 0) {
            break;
        }
        MoeTracing(TRACE_POINT("processing aiv send-tokens", "B")); // autotrace
        SendTokens(params);
        MoeTracing(TRACE_POINT("processing aiv send-tokens", "E")); // autotrace
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNC_AIV_AIC_FLAG);
        MoeTracing(TRACE_POINT("processing aiv recv-tokens", "B")); // autotrace
        RecvTokens(params);
        MoeTracing(TRACE_POINT("processing aiv recv-tokens", "E")); // autotrace
        rows_ = 0;
    } while (false);
    MoeTracing(TRACE_POINT("processing aiv", "E")); // autotrace
}
