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
            rows_ += groupIdx;
            AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNC_AIC_AIV_FLAG);
        }
#ifdef SYNC_MODE
        AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIV_AIC_FLAG);
#endif
    }

    CATLASS_DEVICE void Dispatch(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNC_AIV_AIC_FLAG);
        }
#ifdef SYNC_MODE
        AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIC_AIV_FLAG);
        rows_ = 0;
#endif
#ifndef HCCL_COMM
        AscendC::CrossCoreWaitFlag<0x2>(SYNC_AIC_AIV_FLAG);
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
    GMM1(params);
}

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIV>(Params const &params)
{
    Dispatch(params);
}
