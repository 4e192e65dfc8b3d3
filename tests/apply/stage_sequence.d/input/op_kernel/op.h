// Test operator kernel class: a function whose body is a sequence of stage
// calls (Cube, an operator()<AIC> running GMM1 then GMM2) gets no point of its
// own: each stage is timed where it is called, from its call (the first from
// the start of the body, the #if-ed barrier before it included) to the next
// one, and the stage's own function point merges into that. Inside a stage
// timed so, the work before its first sub-phase is its set-up, or with the
// wait that ends it the wait for its inputs (Gmm1), and the work after its
// last sub-phase is its finish (Gmm2). Applying again finds every pair.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        n_ = 4;
        Cube();
    }

    __aicore__ inline void Cube()
    {
#ifdef SYNC_MODE
        AscendC::SyncAll();
#endif
        Gmm1();
        Gmm2();
        AscendC::SyncAll();
    }

    __aicore__ inline void Gmm1()
    {
        Prepare(1);
        uint32_t idx = 0;
        AscendC::CrossCoreWaitFlag(2);
        for (uint32_t groupIdx = 0; groupIdx < n_; ++groupIdx) {
            AscendC::CrossCoreWaitFlag(3);
            idx++;
        }
    }

    __aicore__ inline void Gmm2()
    {
        Prepare(2);
        for (uint32_t groupIdx = 0; groupIdx < n_; ++groupIdx) {
            n_--;
        }
        if (n_ > 0) {
            Prepare(3);
        }
    }

    __aicore__ inline void Prepare(uint32_t k)
    {
        n_ += k;
    }

    uint32_t n_ = 4;
};
