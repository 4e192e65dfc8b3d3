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
    MoeTracing(TRACE_POINT("processing aic", "B")); // autotrace
    MoeTracing(TRACE_POINT("processing aic cross-core-wait-flag", "B")); // autotrace
    AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGV2C);
    MoeTracing(TRACE_POINT("processing aic cross-core-wait-flag", "E")); // autotrace
    AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNCFLAGC2V);
    MoeTracing(TRACE_POINT("processing aic", "E")); // autotrace
}

template <>
CATLASS_DEVICE void DispatchFFNKernel::operator()<AscendC::AIV>(Params const &params)
{
    MoeTracing(TRACE_POINT("processing aiv", "B")); // autotrace
    if (AscendC::GetSubBlockIdx() == 0) {
        MoeTracing(TRACE_POINT("processing aiv cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGC2V);
        MoeTracing(TRACE_POINT("processing aiv cross-core-wait-flag", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing aiv send-tokens", "B")); // autotrace
        SendTokens(params);
        MoeTracing(TRACE_POINT("processing aiv send-tokens", "E")); // autotrace
    }
    AscendC::SyncAll<true>();
    MoeTracing(TRACE_POINT("processing aiv", "E")); // autotrace
}
