// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: #if groups on macros that nobody defines (the #defines
// below are comments, as an operator leaves its build options). The build
// may take any arm, so each arm is planned: the wait of each arm of the
// HCCL_COMM group has its point, balanced within the arm, and the stage of
// the AIC body that starts inside a SYNC_MODE group spans the whole group.
// (Only the first arm was planned: the #else arm's wait had no point.)
#pragma once
#include "dispatch_ffn_base.h"

// #define SYNC_MODE
// #define HCCL_COMM

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
    }

    CATLASS_DEVICE void GMM2(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            MoeTracing(TRACE_POINT("gmm2 aic moe-process", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("gmm2 aic cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIV_AIC_FLAG);
            MoeTracing(TRACE_POINT("gmm2 aic cross-core-wait-flag", "E")); // autotrace
            rows_ -= groupIdx;
            MoeTracing(TRACE_POINT("gmm2 aic moe-process", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("gmm2 aic finish", "B")); // autotrace
        AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNC_AIC_AIV_FLAG);
        MoeTracing(TRACE_POINT("gmm2 aic finish", "E")); // autotrace
    }

    CATLASS_DEVICE void WaitPeerRanks(Params const &params)
    {
        rows_ += params.tokens;
    }

    CATLASS_DEVICE void Combine(Params const &params)
    {
        MoeTracing(TRACE_POINT("combine aiv", "B")); // autotrace
        rows_ = 0;
        MoeTracing(TRACE_POINT("combine aiv", "E")); // autotrace
    }

    uint32_t tokens_ = 0;

private:
    uint32_t rows_ = 0;
};

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIC>(Params const &params)
{
    MoeTracing(TRACE_POINT("gmm1 aic", "B")); // autotrace
#ifdef SYNC_MODE
    AscendC::SyncAll<false>();
#endif
    GMM1(params);
#ifdef SYNC_MODE
    AscendC::SyncAll<false>();
    AscendC::SyncAll<false>();
#endif
    MoeTracing(TRACE_POINT("gmm1 aic", "E")); // autotrace
    MoeTracing(TRACE_POINT("gmm2 aic", "B")); // autotrace
    GMM2(params);
    MoeTracing(TRACE_POINT("gmm2 aic", "E")); // autotrace
}

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIV>(Params const &params)
{
    MoeTracing(TRACE_POINT("processing aiv", "B")); // autotrace
    for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
        MoeTracing(TRACE_POINT("processing aiv moe-process", "B"), groupIdx); // autotrace
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNC_AIV_AIC_FLAG);
        MoeTracing(TRACE_POINT("processing aiv moe-process", "E"), groupIdx); // autotrace
    }
#ifndef HCCL_COMM
    MoeTracing(TRACE_POINT("processing aiv cross-core-wait-flag", "B")); // autotrace
    AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIC_AIV_FLAG);
    MoeTracing(TRACE_POINT("processing aiv cross-core-wait-flag", "E")); // autotrace
    tokens_ += 1;
#else
    MoeTracing(TRACE_POINT("processing aiv wait-peer-ranks", "B")); // autotrace
    WaitPeerRanks(params);
    MoeTracing(TRACE_POINT("processing aiv wait-peer-ranks", "E")); // autotrace
    tokens_ -= 1;
#endif
    Combine(params);
    MoeTracing(TRACE_POINT("processing aiv", "E")); // autotrace
}
