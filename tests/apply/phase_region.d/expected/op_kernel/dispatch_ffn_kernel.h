// Test operator kernel, in the forms of a fused dispatch / grouped matmul /
// combine kernel: one AIV stage dispatches, hands the tokens to the cube
// cores and combines what they return. Its phase changes where the work
// changes hands: the points before the second wait are the dispatch
// phase's, those from it on the combine phase's, and so are the points of
// the functions called there (Unpermute waits itself).
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

    CATLASS_DEVICE void RunExperts(Params const &params)
    {
        AllGather(params.tokens);
        MoeTracing(TRACE_POINT("dispatch-phase aiv cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGC2V);
        MoeTracing(TRACE_POINT("dispatch-phase aiv cross-core-wait-flag", "E")); // autotrace
        InitRouting(params.tokens);
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNCFLAGV2C);
        MoeTracing(TRACE_POINT("combine-phase aiv cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag<0x2>(SYNCFLAGC2V);
        MoeTracing(TRACE_POINT("combine-phase aiv cross-core-wait-flag", "E")); // autotrace
        CombineV2(params.tokens);
        Unpermute(params.tokens);
    }

private:
    CATLASS_DEVICE void AllGather(uint32_t tokens)
    {
        MoeTracing(TRACE_POINT("dispatch-phase aiv all-gather", "B")); // autotrace
        rows_ += tokens;
        MoeTracing(TRACE_POINT("dispatch-phase aiv all-gather", "E")); // autotrace
    }

    CATLASS_DEVICE void InitRouting(uint32_t tokens)
    {
        MoeTracing(TRACE_POINT("dispatch-phase aiv init-routing", "B")); // autotrace
        rows_ -= tokens;
        MoeTracing(TRACE_POINT("dispatch-phase aiv init-routing", "E")); // autotrace
    }

    CATLASS_DEVICE void CombineV2(uint32_t tokens)
    {
        MoeTracing(TRACE_POINT("combine-phase aiv combine-v2", "B")); // autotrace
        rows_ += 2 * tokens;
        MoeTracing(TRACE_POINT("combine-phase aiv combine-v2", "E")); // autotrace
    }

    CATLASS_DEVICE void Unpermute(uint32_t tokens)
    {
        MoeTracing(TRACE_POINT("combine-phase aiv unpermute", "B")); // autotrace
        AscendC::SyncAll<true>();
        rows_ -= 2 * tokens;
        MoeTracing(TRACE_POINT("combine-phase aiv unpermute", "E")); // autotrace
    }

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
    MoeTracing(TRACE_POINT("run-experts aiv", "B")); // autotrace
    RunExperts(params);
    MoeTracing(TRACE_POINT("run-experts aiv", "E")); // autotrace
}
