// Test operator kernel class: {Name} and {Class} keep the case the source
// writes (GMM1, CombineV2, the functor's class for its operator()), while
// {name} kebab-cases; a function that names its own phase leaves {Name} out
// as it does {name}, and a long name is fitted to 48 characters.
#pragma once
#include "op_base.h"

struct TileCopyV2 {
    __aicore__ inline void operator()(uint32_t n)
    {
        AscendC::CrossCoreWaitFlag(n);
    }
};

class CombineV2 {
public:
    __aicore__ inline void Process()
    {
        GMM1();
        SendCoreFunc();
        CrossRankSyncAndLocalTokenPerExpertAllGatherAndGetSumPerRankV3();
    }

private:
    __aicore__ inline void GMM1()
    {
        for (uint32_t groupIdx = 0; groupIdx < groups_; groupIdx++) {
            AscendC::CrossCoreWaitFlag(1);
            rows_ += groupIdx;
        }
    }

    __aicore__ inline void SendCoreFunc()
    {
        TileCopyV2 copy;
        copy(2);
        rows_ = 0;
    }

    __aicore__ inline void CrossRankSyncAndLocalTokenPerExpertAllGatherAndGetSumPerRankV3()
    {
        rows_++;
    }

    uint32_t groups_ = 4;
    uint32_t rows_ = 0;
};
