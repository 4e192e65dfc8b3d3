// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        bool isSendCore = AscendC::GetSubBlockIdx() == 0;
        if (isSendCore) { // autotrace
            MoeTracing(TRACE_POINT("processing send-core", "B")); // autotrace
            Send();
            MoeTracing(TRACE_POINT("processing send-core", "E")); // autotrace
        } // autotrace
        else
            Recv();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Send()
    {
        n_ = 1;
    }

    __aicore__ inline void Recv()
    {
        MoeTracing(TRACE_POINT("processing recv", "B")); // autotrace
        n_ = 2;
        MoeTracing(TRACE_POINT("processing recv", "E")); // autotrace
    }

    int n_ = 0;
};
