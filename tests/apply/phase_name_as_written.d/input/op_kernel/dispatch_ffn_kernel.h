// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: phases named with {Name} and {Class} keep the case of
// the names (GMM1, CombineV2, DispatchFFNKernel), of a function and of a
// phase region alike.
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

    CATLASS_DEVICE void GMM1(Params const &params)
    {
        AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGV2C);
        rows_ += params.tokens;
        Finalize(params);
    }

    CATLASS_DEVICE void CombineV2(Params const &params)
    {
        AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGC2V);
        rows_ -= params.tokens;
    }

private:
    CATLASS_DEVICE void Finalize(Params const &params)
    {
        AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNCFLAGC2V);
        AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGV2C);
    }

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
    CombineV2(params);
}
