// Test operator kernel class: inside a stage timed at its call, the set-up
// that ends with a wait for the other core type is the wait for its inputs;
// the plain statements after that wait and before the first sub-phase, when
// they make a call, are the rest of the set-up, a point of their own (Gmm1:
// "cube mix gmm1 setup"), as experts split a spin-wait from work. With no
// call after the wait (Gmm2: one increment) they stay with what follows.
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
        Gmm1();
        Gmm2();
        AscendC::SyncAll();
    }

    __aicore__ inline void Gmm1()
    {
        uint32_t idx = 0;
        AscendC::CrossCoreWaitFlag(2);
        idx++;
        Prepare(4);
        for (uint32_t groupIdx = 0; groupIdx < n_; ++groupIdx) {
            AscendC::CrossCoreWaitFlag(3);
            idx++;
        }
    }

    __aicore__ inline void Gmm2()
    {
        uint32_t idx = 0;
        Prepare(1);
        AscendC::CrossCoreWaitFlag(5);
        idx++;
        for (uint32_t groupIdx = 0; groupIdx < n_; ++groupIdx) {
            AscendC::CrossCoreWaitFlag(6);
            idx += groupIdx;
        }
    }

    __aicore__ inline void Prepare(uint32_t k)
    {
        n_ += k;
    }

    uint32_t n_ = 4;
};
