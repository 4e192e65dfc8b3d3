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
        Dispatch();
        CrossRankSyncSet();
        BarrierAll();
        AsyncCopy();
    }

    __aicore__ inline void Dispatch()
    {
        AscendC::CrossCoreWaitFlag(1);
        n_++;
    }

    __aicore__ inline void CrossRankSyncSet()
    {
        AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(2);
        AscendC::CrossCoreWaitFlag(2);
        n_++;
        AscendC::CrossCoreWaitFlag(3);
    }

    __aicore__ inline void BarrierAll()
    {
        AscendC::SyncAll();
        AscendC::CrossCoreWaitFlag(4);
    }

    __aicore__ inline void AsyncCopy()
    {
        AscendC::CrossCoreWaitFlag(5);
        n_++;
        AscendC::CrossCoreWaitFlag(6);
    }

    uint32_t n_ = 4;
};
