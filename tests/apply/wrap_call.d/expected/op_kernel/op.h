// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Dispatcher dispatcher;
        MoeTracing(TRACE_POINT("dispatch init", "B")); // autotrace
        dispatcher.Init(4,
                        5);
        MoeTracing(TRACE_POINT("dispatch init", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing run", "B")); // autotrace
        dispatcher.Run();
        MoeTracing(TRACE_POINT("processing run", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    struct Dispatcher {
        __aicore__ inline void Init(int a, int b)
        {
            n = a + b;
        }
        __aicore__ inline void Run()
        {
            n++;
        }
        int n = 0;
    };
};
