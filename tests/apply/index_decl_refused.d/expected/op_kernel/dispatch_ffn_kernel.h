// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: a wrap rule whose index is the variable the statement it
// times declares. B would go before the declaration and use the variable
// before it exists (the kernel would not compile): the point is refused,
// located, and nothing is written.
#pragma once
#include "dispatch_ffn_base.h"

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
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            uint32_t currentM = GetCumsum(groupIdx);
            rows_ += currentM;
        }
    }

private:
    CATLASS_DEVICE uint32_t GetCumsum(uint32_t groupIdx)
    {
        return groupIdx * 16;
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
    AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNCFLAGV2C);
}
