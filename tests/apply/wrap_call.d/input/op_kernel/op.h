// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Dispatcher dispatcher;
        dispatcher.Init(4,
                        5);
        dispatcher.Run();
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
