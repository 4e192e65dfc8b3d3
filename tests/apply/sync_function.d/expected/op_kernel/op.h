// Test operator kernel class: a function named for a synchronisation
// (CrossRankSyncSet, BarrierAll) is itself the wait and gets one point; the
// waits and flags it is made of get none of their own (moe.rules: in function
// /(Sync|Barrier)(?![a-z])/ { skip call /./; }). A name where the letters
// are not that word (AsyncCopy) keeps its inner points.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Dispatch();
        CrossRankSyncSet();
        BarrierAll();
        AsyncCopy();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    __aicore__ inline void Dispatch()
    {
        MoeTracing(TRACE_POINT("dispatch", "B")); // autotrace
        MoeTracing(TRACE_POINT("dispatch cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("dispatch cross-core-wait-flag", "E")); // autotrace
        n_++;
        MoeTracing(TRACE_POINT("dispatch", "E")); // autotrace
    }

    __aicore__ inline void CrossRankSyncSet()
    {
        MoeTracing(TRACE_POINT("cross-rank-sync-set", "B")); // autotrace
        AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(2);
        AscendC::CrossCoreWaitFlag(2);
        n_++;
        AscendC::CrossCoreWaitFlag(3);
        MoeTracing(TRACE_POINT("cross-rank-sync-set", "E")); // autotrace
    }

    __aicore__ inline void BarrierAll()
    {
        MoeTracing(TRACE_POINT("barrier-all", "B")); // autotrace
        AscendC::SyncAll();
        AscendC::CrossCoreWaitFlag(4);
        MoeTracing(TRACE_POINT("barrier-all", "E")); // autotrace
    }

    __aicore__ inline void AsyncCopy()
    {
        MoeTracing(TRACE_POINT("async-copy", "B")); // autotrace
        MoeTracing(TRACE_POINT("async-copy cross-core-wait-flag 5", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(5);
        MoeTracing(TRACE_POINT("async-copy cross-core-wait-flag 5", "E")); // autotrace
        n_++;
        MoeTracing(TRACE_POINT("async-copy cross-core-wait-flag 6", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(6);
        MoeTracing(TRACE_POINT("async-copy cross-core-wait-flag 6", "E")); // autotrace
        MoeTracing(TRACE_POINT("async-copy", "E")); // autotrace
    }

    uint32_t n_ = 4;
};
