// Test operator kernel class: `#N` after a regex selects the N-th match of
// the function body in source order. The two barriers are textually the
// same statement; only the second gets a point. The region starts at the
// second Gmm1 call and ends at the second wait, not at the first ones; of
// the waits, only the first is hot.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Gmm1();
        AscendC::CrossCoreWaitFlag(1);
        AscendC::SyncAll<true>();
        rows_++;
        Gmm1();
        rows_ += 2;
        AscendC::CrossCoreWaitFlag(2);
        AscendC::SyncAll<true>();
        rows_ = 0;
    }

private:
    __aicore__ inline void Gmm1() { rows_--; }
    uint32_t rows_ = 0;
};
