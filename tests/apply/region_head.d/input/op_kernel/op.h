// Test operator kernel class: region rules match a statement's head (a
// loop's header, an if's condition), not its body. Matched on their whole
// text, the loop and the if, which hold the calls, would be the regions;
// matched on their heads, the regions are the runs inside their bodies.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t step = 0; step < steps_; ++step) {
            rows_ = step;
            AscendC::SyncAll<true>();
            Gmm1();
            rows_++;
        }
        if (needWait_) {
            rows_ = 0;
            AscendC::CrossCoreWaitFlag(1);
            rows_ += 2;
        }
    }

private:
    __aicore__ inline void Gmm1() { rows_--; }
    bool needWait_ = true;
    uint32_t steps_ = 2;
    uint32_t rows_ = 0;
};
