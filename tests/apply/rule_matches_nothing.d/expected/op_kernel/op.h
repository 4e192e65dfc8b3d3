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
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        // wait for the cube cores to finish the matmul
        MoeTracing(TRACE_POINT("processing wait syncflagc2v", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(SYNCFLAGC2V);
        MoeTracing(TRACE_POINT("processing wait syncflagc2v", "E")); // autotrace
        CrossRankSyncAndLocalTokenPerExpertAllGatherAndGetSumPerRankV2();
        do {
            if (count_ == 0) {
                break;
            }
            /* the vector cores' turn */
            MoeTracing(TRACE_POINT("processing wait syncflagv2c", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(SYNCFLAGV2C);
            MoeTracing(TRACE_POINT("processing wait syncflagv2c", "E")); // autotrace
            count_--;
        } while (false);
        uint32_t n = count_;
        MoeTracing(TRACE_POINT("processing wait syncflagv2c-2", "B")); // autotrace
        do {
            AscendC::CrossCoreWaitFlag(SYNCFLAGV2C);
        } while (n-- > 0);
        MoeTracing(TRACE_POINT("processing wait syncflagv2c-2", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    __aicore__ inline void CrossRankSyncAndLocalTokenPerExpertAllGatherAndGetSumPerRankV2()
    {
        MoeTracing(TRACE_POINT("cross-rank-sync-local", "B")); // autotrace
        AscendC::SyncAll();
        count_++;
        MoeTracing(TRACE_POINT("cross-rank-sync-local", "E")); // autotrace
    }

private:
    uint32_t count_ = 0;
};
