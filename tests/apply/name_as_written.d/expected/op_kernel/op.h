// Test operator kernel class: {Name} and {Class} keep the case the source
// writes (GMM1, CombineV2, the functor's class for its operator()), while
// {name} kebab-cases; a function that names its own phase leaves {Name} out
// as it does {name}, and a long name is fitted to 48 characters.
#pragma once
#include "op_base.h"

struct TileCopyV2 {
    __aicore__ inline void operator()(uint32_t n)
    {
        MoeTracing(TRACE_POINT("CombineV2 SendCoreFunc send-core-func TileCopyV2", "B")); // autotrace
        MoeTracing(TRACE_POINT("CombineV2 SendCoreFunc send TileCopyV2 CrossCore", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(n);
        MoeTracing(TRACE_POINT("CombineV2 SendCoreFunc send TileCopyV2 CrossCore", "E")); // autotrace
        MoeTracing(TRACE_POINT("CombineV2 SendCoreFunc send-core-func TileCopyV2", "E")); // autotrace
    }
};

class CombineV2 {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        GMM1();
        SendCoreFunc();
        CrossRankSyncAndLocalTokenPerExpertAllGatherAndGetSumPerRankV3();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void GMM1()
    {
        MoeTracing(TRACE_POINT("gmm1", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < groups_; groupIdx++) {
            MoeTracing(TRACE_POINT("gmm1 groupIdx", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("gmm1 groupIdx CombineV2 CrossCoreWaitFlag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(1);
            MoeTracing(TRACE_POINT("gmm1 groupIdx CombineV2 CrossCoreWaitFlag", "E")); // autotrace
            rows_ += groupIdx;
            MoeTracing(TRACE_POINT("gmm1 groupIdx", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("gmm1", "E")); // autotrace
    }

    __aicore__ inline void SendCoreFunc()
    {
        MoeTracing(TRACE_POINT("CombineV2 SendCoreFunc send-core-func", "B")); // autotrace
        TileCopyV2 copy;
        copy(2);
        rows_ = 0;
        MoeTracing(TRACE_POINT("CombineV2 SendCoreFunc send-core-func", "E")); // autotrace
    }

    __aicore__ inline void CrossRankSyncAndLocalTokenPerExpertAllGatherAndGetSumPerRankV3()
    {
        MoeTracing(TRACE_POINT("CombineV2 CrossRankSyncAndLocalTokenPerExpertAll", "B")); // autotrace
        rows_++;
        MoeTracing(TRACE_POINT("CombineV2 CrossRankSyncAndLocalTokenPerExpertAll", "E")); // autotrace
    }

    uint32_t groups_ = 4;
    uint32_t rows_ = 0;
};
