// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t stageIdx = 0; stageIdx < 2; stageIdx++) { // autotrace split
            MoeTracing(TRACE_POINT("stage", "B"), stageIdx); // autotrace
            Work(stageIdx);
            MoeTracing(TRACE_POINT("stage", "E"), stageIdx); // autotrace
        } // autotrace
        n_++;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Work(uint32_t s)
    {
        n_ += s;
    }

    uint32_t n_ = 0;
};
