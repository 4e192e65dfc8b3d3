// A hand-instrumented test operator for autotrace learn: a pair of each
// shape learn can say (a function's body, a loop's body, the body of a
// second loop on the same variable (by its header), a call of the
// operator's own function called once (at its call), a library call by its
// name and #N, a run of statements from one call to another, a run of plain
// statements (by the names they start with), a whole if statement, a marker
// pair before a call) and one it cannot (a marker pair before no call).
#pragma once
#include "op_base.h"

__aicore__ inline void WaitFlag(int f) { (void)f; }

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B"));
        Prepare();
        for (uint32_t tileIdx = 0; tileIdx < 4; tileIdx++) {
            MoeTracing(TRACE_POINT("processing tile", "B"), tileIdx);
            Step(tileIdx);
            Step(tileIdx + 1);
            MoeTracing(TRACE_POINT("processing tile", "E"), tileIdx);
        }
        for (uint32_t tileIdx = 4; tileIdx < 6; tileIdx++) {
            MoeTracing(TRACE_POINT("processing last tile", "B"), tileIdx);
            Step(tileIdx);
            MoeTracing(TRACE_POINT("processing last tile", "E"), tileIdx);
        }
        MoeTracing(TRACE_POINT("processing setup", "B"));
        uint32_t base = 4;
        n_ += base;
        MoeTracing(TRACE_POINT("processing setup", "E"));
        MoeTracing(TRACE_POINT("processing reduce", "B"));
        Reduce();
        MoeTracing(TRACE_POINT("processing reduce", "E"));
        MoeTracing(TRACE_POINT("processing step starts", "B"));
        MoeTracing(TRACE_POINT("processing step starts", "E"));
        Step(0);
        MoeTracing(TRACE_POINT("processing wait", "B"));
        AscendC::SyncAll();
        MoeTracing(TRACE_POINT("processing wait", "E"));
        MoeTracing(TRACE_POINT("processing tail", "B"));
        Step(1);
        Step(2);
        Finish();
        MoeTracing(TRACE_POINT("processing tail", "E"));
        MoeTracing(TRACE_POINT("processing check", "B"));
        if (n_ > 3) {
            Step(3);
        }
        MoeTracing(TRACE_POINT("processing check", "E"));
        MoeTracing(TRACE_POINT("processing end mark", "B"));
        MoeTracing(TRACE_POINT("processing end mark", "E"));
        MoeTracing(TRACE_POINT("processing", "E"));
    }

private:
    __aicore__ inline void Prepare()
    {
        MoeTracing(TRACE_POINT("processing prepare", "B"));
        n_ = 0;
        Step(5);
        MoeTracing(TRACE_POINT("processing prepare", "E"));
    }

    __aicore__ inline void Reduce() { n_ /= 2; }
    __aicore__ inline void Step(uint32_t k) { n_ += k; }
    __aicore__ inline void Finish() { n_ -= 1; }

    int n_ = 0;
};
