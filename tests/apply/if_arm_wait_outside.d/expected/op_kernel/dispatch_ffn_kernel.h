// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: waits that only some builds make. A wait that is the only
// statement of an #ifdef without #else is timed as experts time it, B before
// the #ifdef line and E after the #endif, so that the point is there in every
// build (empty where the wait is not); a wait beside other code in its arm,
// or in a group of two arms, keeps its point within the arm.
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
            rows_ += groupIdx;
            AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNC_AIC_AIV_FLAG);
            MoeTracing(TRACE_POINT("gmm1 aic moe-process", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("gmm1 aic cross-core-wait-flag", "B")); // autotrace
#ifdef SYNC_MODE
        AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIV_AIC_FLAG);
#endif
        MoeTracing(TRACE_POINT("gmm1 aic cross-core-wait-flag", "E")); // autotrace
    }

    CATLASS_DEVICE void Dispatch(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            MoeTracing(TRACE_POINT("dispatch aiv moe-process", "B"), groupIdx); // autotrace
            AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNC_AIV_AIC_FLAG);
            MoeTracing(TRACE_POINT("dispatch aiv moe-process", "E"), groupIdx); // autotrace
        }
#ifdef SYNC_MODE
        MoeTracing(TRACE_POINT("dispatch aiv cross-core-wait sync-aic-aiv-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIC_AIV_FLAG);
        MoeTracing(TRACE_POINT("dispatch aiv cross-core-wait sync-aic-aiv-flag", "E")); // autotrace
        rows_ = 0;
#endif
#ifndef HCCL_COMM
        MoeTracing(TRACE_POINT("dispatch aiv cross-core-wait sync-aic-aiv-flag-2", "B")); // autotrace
        AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIC_AIV_FLAG);
        MoeTracing(TRACE_POINT("dispatch aiv cross-core-wait sync-aic-aiv-flag-2", "E")); // autotrace
#else
        AscendC::SyncAll<true>();
#endif
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
    MoeTracing(TRACE_POINT("dispatch aiv", "B")); // autotrace
    Dispatch(params);
    MoeTracing(TRACE_POINT("dispatch aiv", "E")); // autotrace
}
