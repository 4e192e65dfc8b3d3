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
            AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIV_AIC_FLAG);
            rows_ += groupIdx;
        }
    }

    CATLASS_DEVICE void GMM2(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIV_AIC_FLAG);
            rows_ -= groupIdx;
        }
        AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNC_AIC_AIV_FLAG);
    }

    CATLASS_DEVICE void WaitPeerRanks(Params const &params)
    {
        rows_ += params.tokens;
    }

    CATLASS_DEVICE void Combine(Params const &params)
    {
        rows_ = 0;
    }

    uint32_t tokens_ = 0;

private:
    uint32_t rows_ = 0;
};

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIC>(Params const &params)
{
#ifdef SYNC_MODE
    AscendC::SyncAll<false>();
#endif
    GMM1(params);
#ifdef SYNC_MODE
    AscendC::SyncAll<false>();
    AscendC::SyncAll<false>();
#endif
    GMM2(params);
}

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIV>(Params const &params)
{
    for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNC_AIV_AIC_FLAG);
    }
#ifndef HCCL_COMM
    AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIC_AIV_FLAG);
    tokens_ += 1;
#else
    WaitPeerRanks(params);
    tokens_ -= 1;
#endif
    Combine(params);
}
