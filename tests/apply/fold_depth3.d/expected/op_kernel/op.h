// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (int groupIdx = 0; groupIdx < 2; groupIdx++) {
            MoeTracing(TRACE_POINT("processing group-idx", "B")); // autotrace
            for (int stageIdx = 0; stageIdx < 2; stageIdx++) {
                MoeTracing(TRACE_POINT("processing group-idx stage-idx", "B")); // autotrace
                for (int expertIdx = 0; expertIdx < 2; expertIdx++) {
                    n_++;
                }
                MoeTracing(TRACE_POINT("processing group-idx stage-idx", "E")); // autotrace
            }
            MoeTracing(TRACE_POINT("processing group-idx", "E")); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    int n_ = 0;
};
