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
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        n_ = 4;
        Cube();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    __aicore__ inline void Cube()
    {
        MoeTracing(TRACE_POINT("cube gmm1", "B")); // autotrace
        Gmm1();
        MoeTracing(TRACE_POINT("cube gmm1", "E")); // autotrace
        MoeTracing(TRACE_POINT("cube gmm2", "B")); // autotrace
        Gmm2();
        AscendC::SyncAll();
        MoeTracing(TRACE_POINT("cube gmm2", "E")); // autotrace
    }

    __aicore__ inline void Gmm1()
    {
        MoeTracing(TRACE_POINT("cube cross-core-wait-flag", "B")); // autotrace
        uint32_t idx = 0;
        AscendC::CrossCoreWaitFlag(2);
        MoeTracing(TRACE_POINT("cube cross-core-wait-flag", "E")); // autotrace
        MoeTracing(TRACE_POINT("cube gmm1 setup", "B")); // autotrace
        idx++;
        Prepare(4);
        MoeTracing(TRACE_POINT("cube gmm1 setup", "E")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < n_; ++groupIdx) {
            MoeTracing(TRACE_POINT("cube moe-process", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("cube cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(3);
            MoeTracing(TRACE_POINT("cube cross-core-wait-flag", "E")); // autotrace
            idx++;
            MoeTracing(TRACE_POINT("cube moe-process", "E"), groupIdx); // autotrace
        }
    }

    __aicore__ inline void Gmm2()
    {
        MoeTracing(TRACE_POINT("cube cross-core-wait-flag", "B")); // autotrace
        uint32_t idx = 0;
        Prepare(1);
        AscendC::CrossCoreWaitFlag(5);
        MoeTracing(TRACE_POINT("cube cross-core-wait-flag", "E")); // autotrace
        idx++;
        for (uint32_t groupIdx = 0; groupIdx < n_; ++groupIdx) {
            MoeTracing(TRACE_POINT("cube moe-process", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("cube cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(6);
            MoeTracing(TRACE_POINT("cube cross-core-wait-flag", "E")); // autotrace
            idx += groupIdx;
            MoeTracing(TRACE_POINT("cube moe-process", "E"), groupIdx); // autotrace
        }
    }

    __aicore__ inline void Prepare(uint32_t k)
    {
        n_ += k;
    }

    uint32_t n_ = 4;
};
