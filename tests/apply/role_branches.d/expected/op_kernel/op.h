// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        uint32_t aivIdx = AscendC::GetSubBlockIdx();
        if (AscendC::GetSubBlockIdx() == 0) {
            MoeTracing(TRACE_POINT("processing send-core", "B")); // autotrace
            Send();
            MoeTracing(TRACE_POINT("processing send-core", "E")); // autotrace
        }
        if (aivIdx == 1) {
            MoeTracing(TRACE_POINT("processing aiv-role-aiv-idx", "B")); // autotrace
            Recv();
            MoeTracing(TRACE_POINT("processing aiv-role-aiv-idx", "E")); // autotrace
        } else if (aivIdx == 2) {
            MoeTracing(TRACE_POINT("processing aiv-role-aiv-idx-2", "B")); // autotrace
            n_ = 2;
            MoeTracing(TRACE_POINT("processing aiv-role-aiv-idx-2", "E")); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Send()
    {
        n_ = 1;
    }

    __aicore__ inline void Recv()
    {
        n_ = 3;
    }

    int n_ = 0;
};
