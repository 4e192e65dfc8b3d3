// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: wrap rules match a call statement on its own text, the
// body of a lambda written in it cut to {}. The call of ForEachGroup is not
// a wait, though the lambda it is given waits: the wait inside the lambda
// is wrapped, and the wait after it. (The whole text was matched: the call
// of ForEachGroup was wrapped as a wait too.)
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

    CATLASS_DEVICE void Dispatch(Params const &params)
    {
        ForEachGroup(params.expertPerRank, [&](uint32_t groupIdx) {
            AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGC2V);
            rows_ += groupIdx * params.tokens;
            AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNCFLAGV2C);
        });
        AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGC2V);
    }

    template <typename Callback>
    CATLASS_DEVICE void ForEachGroup(uint32_t groups, Callback &&callback)
    {
        for (uint32_t groupIdx = 0; groupIdx < groups; ++groupIdx) {
            callback(groupIdx);
        }
    }

private:
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
    Dispatch(params);
}
