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
        MoeTracing(TRACE_POINT("send-tokens aiv send", "B"), coreIdx); // autotrace
        uint32_t coreNum = AscendC::GetBlockNum() * AscendC::GetSubBlockNum();
        if (coreIdx >= coreNum) {
            MoeTracing(TRACE_POINT("send-tokens aiv send", "E"), coreIdx); // autotrace
            return;
        }
        rows_ += coreIdx * params.tokens;
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNCFLAGV2C);
        MoeTracing(TRACE_POINT("send-tokens aiv send", "E"), coreIdx); // autotrace
    }

private:
    uint32_t rows_ = 0;
};

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIC>(Params const &params)
{
    MoeTracing(TRACE_POINT("processing aic", "B")); // autotrace
    MoeTracing(TRACE_POINT("processing aic cross-core-wait-flag", "B")); // autotrace
    AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGV2C);
    MoeTracing(TRACE_POINT("processing aic cross-core-wait-flag", "E")); // autotrace
    MoeTracing(TRACE_POINT("processing aic", "E")); // autotrace
}

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIV>(Params const &params)
{
    MoeTracing(TRACE_POINT("processing aiv", "B")); // autotrace
    AscendC::SyncAll<true>();
    SendTokens(params);
    MoeTracing(TRACE_POINT("processing aiv", "E")); // autotrace
}
