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
        Stage();
#ifdef SYNC_MODE
        AscendC::SyncAll();
        AscendC::CrossCoreWaitFlag(1);
#else
        AscendC::CrossCoreWaitFlag(2);
#endif
#if QUEUE_DEPTH > 2
        AscendC::CrossCoreWaitFlag(5);
#elif defined(SHALLOW_QUEUE)
        AscendC::CrossCoreWaitFlag(6);
#endif
#ifdef SPLIT_CALL
        Wait(7,
#else
        Wait(8,
#endif
             0);
        Tail();
    }

    __aicore__ inline void Stage()
    {
        AscendC::SyncAll();
        n_++;
    }

    __aicore__ inline void Wait(int a, int b)
    {
        n_ += a + b;
    }

    __aicore__ inline void Tail()
    {
#ifdef TAIL_SYNC
        AscendC::SyncAll();
        n_--;
#else
        n_ -= 2;
        AscendC::SyncAll();
#endif
    }

    int n_ = 0;
};
