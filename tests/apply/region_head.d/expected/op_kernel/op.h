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
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t step = 0; step < steps_; ++step) {
            MoeTracing(TRACE_POINT("processing step", "B")); // autotrace
            rows_ = step;
            MoeTracing(TRACE_POINT("processing step gmm1", "B")); // autotrace
            AscendC::SyncAll<true>();
            Gmm1();
            MoeTracing(TRACE_POINT("processing step gmm1", "E")); // autotrace
            rows_++;
            MoeTracing(TRACE_POINT("processing step", "E")); // autotrace
        }
        if (needWait_) {
            rows_ = 0;
            MoeTracing(TRACE_POINT("processing wait", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(1);
            rows_ += 2;
            MoeTracing(TRACE_POINT("processing wait", "E")); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Gmm1() { rows_--; }
    bool needWait_ = true;
    uint32_t steps_ = 2;
    uint32_t rows_ = 0;
};
