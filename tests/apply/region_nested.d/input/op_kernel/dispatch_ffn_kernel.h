// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: regions nest. The exchange with the cube cores is one
// region, each group's exchange in the loop is another of the same rule,
// inside it, and the counts, a region of another rule, nest in the outer one
// at its level. (A region of one rule was never looked for inside another,
// nor any region at the level of an open one.)
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

    CATLASS_DEVICE void DispatchAndCombine(Params const &params)
    {
        AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGC2V);
        uint32_t tokens = params.tokens;
        GetCumsum(tokens);
        AllGather(tokens);
        for (uint32_t groupIdx = 0; groupIdx < params.expertPerRank; ++groupIdx) {
            AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGC2V);
            Swiglu(groupIdx);
            AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNCFLAGV2C);
        }
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNCFLAGV2C);
    }

private:
    CATLASS_DEVICE void GetCumsum(uint32_t tokens) { rows_ += tokens; }
    CATLASS_DEVICE void AllGather(uint32_t tokens) { rows_ -= tokens; }
    CATLASS_DEVICE void Swiglu(uint32_t groupIdx) { rows_ += groupIdx; }
    uint32_t rows_ = 0;
};

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIC>(Params const &params)
{
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNCFLAGC2V);
}

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIV>(Params const &params)
{
    DispatchAndCombine(params);
}
