// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        uint32_t aivIdx = AscendC::GetSubBlockIdx();
        if (aivIdx == 0) {
            MoeTracing(TRACE_POINT("send", "B")); // autotrace
            n_ = 1;
            MoeTracing(TRACE_POINT("send", "E")); // autotrace
        } else if (aivIdx == 1) {
            MoeTracing(TRACE_POINT("recv", "B")); // autotrace
            n_ = 2;
            MoeTracing(TRACE_POINT("recv", "E")); // autotrace
            MoeTracing(TRACE_POINT("processing", "E")); // autotrace
            return;
        } else {
            n_ = 3;
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    int n_ = 0;
};
