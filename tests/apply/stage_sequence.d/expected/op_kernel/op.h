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
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        n_ = 4;
        Cube();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    __aicore__ inline void Cube()
    {
        MoeTracing(TRACE_POINT("cube gmm1", "B")); // autotrace
#ifdef SYNC_MODE
        AscendC::SyncAll();
#endif
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
        Prepare(1);
        uint32_t idx = 0;
        AscendC::CrossCoreWaitFlag(2);
        MoeTracing(TRACE_POINT("cube cross-core-wait-flag", "E")); // autotrace
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
        MoeTracing(TRACE_POINT("cube gmm2 setup", "B")); // autotrace
        Prepare(2);
        MoeTracing(TRACE_POINT("cube gmm2 setup", "E")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < n_; ++groupIdx) {
            MoeTracing(TRACE_POINT("cube moe-process", "B"), groupIdx); // autotrace
            n_--;
            MoeTracing(TRACE_POINT("cube moe-process", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("cube gmm2 finish", "B")); // autotrace
        if (n_ > 0) {
            Prepare(3);
        }
        MoeTracing(TRACE_POINT("cube gmm2 finish", "E")); // autotrace
    }

    __aicore__ inline void Prepare(uint32_t k)
    {
        n_ += k;
    }

    uint32_t n_ = 4;
};
