// Test operator kernel class: #if groups whose macros nobody defines (the
// `#define SYNC_MODE` below is a comment). The build may take any arm, so
// each arm is planned and its points balance within it; a point whose
// statements lie in two arms (Tail's body) spans the whole group. A group
// with a directive inside, or arms that are not whole statements, keeps the
// default: the first arm.
#pragma once
#include "op_base.h"

// #define SYNC_MODE

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Stage();
#ifdef SYNC_MODE
        AscendC::SyncAll();
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag 1", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag 1", "E")); // autotrace
#else
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag 2", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(2);
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag 2", "E")); // autotrace
#endif
#if QUEUE_DEPTH > 2
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag 5", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(5);
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag 5", "E")); // autotrace
#elif defined(SHALLOW_QUEUE)
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag 6", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(6);
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag 6", "E")); // autotrace
#endif
        MoeTracing(TRACE_POINT("processing wait", "B")); // autotrace
#ifdef SPLIT_CALL
        Wait(7,
#else
        Wait(8,
#endif
             0);
        MoeTracing(TRACE_POINT("processing wait", "E")); // autotrace
        Tail();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    __aicore__ inline void Stage()
    {
        MoeTracing(TRACE_POINT("stage", "B")); // autotrace
        AscendC::SyncAll();
        n_++;
        MoeTracing(TRACE_POINT("stage", "E")); // autotrace
    }

    __aicore__ inline void Wait(int a, int b)
    {
        n_ += a + b;
    }

    __aicore__ inline void Tail()
    {
        MoeTracing(TRACE_POINT("tail", "B")); // autotrace
#ifdef TAIL_SYNC
        AscendC::SyncAll();
        n_--;
#else
        n_ -= 2;
        AscendC::SyncAll();
#endif
        MoeTracing(TRACE_POINT("tail", "E")); // autotrace
    }

    int n_ = 0;
};
