// Test operator kernel class: the code the rules of rule_matches_nothing.d
// are tried on (see its autotrace.rules).
#pragma once
#include "op_base.h"

constexpr uint16_t SYNCFLAGC2V = 3;
constexpr uint16_t SYNCFLAGV2C = 4;

class Op {
public:
    __aicore__ inline void Process()
    {
        // wait for the cube cores to finish the matmul
        AscendC::CrossCoreWaitFlag(SYNCFLAGC2V);
        CrossRankSyncAndLocalTokenPerExpertAllGatherAndGetSumPerRankV2();
        do {
            if (count_ == 0) {
                break;
            }
            /* the vector cores' turn */
            AscendC::CrossCoreWaitFlag(SYNCFLAGV2C);
            count_--;
        } while (false);
        uint32_t n = count_;
        do {
            AscendC::CrossCoreWaitFlag(SYNCFLAGV2C);
        } while (n-- > 0);
    }

    __aicore__ inline void CrossRankSyncAndLocalTokenPerExpertAllGatherAndGetSumPerRankV2()
    {
        AscendC::SyncAll();
        count_++;
    }

private:
    uint32_t count_ = 0;
};
