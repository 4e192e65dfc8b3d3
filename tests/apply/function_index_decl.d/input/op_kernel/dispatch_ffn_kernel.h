// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: a function rule whose index is a variable the function
// declares first. B goes after that declaration, as a loop's, a branch's
// or a region's does. (It went before it, and the trace point used the
// variable before its declaration: the kernel did not compile.)
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
        uint32_t coreIdx = AscendC::GetBlockIdx() + AscendC::GetSubBlockIdx() * AscendC::GetBlockNum();
        uint32_t coreNum = AscendC::GetBlockNum() * AscendC::GetSubBlockNum();
        if (coreIdx >= coreNum) {
            return;
        }
        rows_ += coreIdx * params.tokens;
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNCFLAGV2C);
    }

private:
    uint32_t rows_ = 0;
};

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIC>(Params const &params)
{
    AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGV2C);
}

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIV>(Params const &params)
{
    AscendC::SyncAll<true>();
    SendTokens(params);
}
