// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: the AIV role branch is transparent. It has no point of
// its own, and what is in it is planned as the code around it: the wait
// and the send keep their points, under the AIV stage.
#pragma once
#include "dispatch_ffn_base.h"

constexpr uint16_t SYNCFLAGC2V = 4;
constexpr uint16_t SYNCFLAGV2C = 6;

struct Params {
    uint32_t expertPerRank;
    uint32_t tokens;
};

class DispatchFFNKernel {
public:
    template <int32_t CORE_TYPE>
    CATLASS_DEVICE void operator()(Params const &params);

    CATLASS_DEVICE void SendTokens(Params const &params)
    {
        rows_ += params.tokens;
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNCFLAGV2C);
    }

private:
    uint32_t rows_ = 0;
};

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIC>(Params const &params)
{
    AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGV2C);
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNCFLAGC2V);
}

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIV>(Params const &params)
{
    if (AscendC::GetSubBlockIdx() == 0) {
        AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGC2V);
        SendTokens(params);
    }
    AscendC::SyncAll<true>();
}
