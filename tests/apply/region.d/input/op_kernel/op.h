// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        n_ = 0;
        Dispatcher dispatcher;
        dispatcher.Prepare();
        n_ += 1;
        AscendC::CrossCoreWaitFlag(1);
        n_ += 2;
    }

private:
    struct Dispatcher {
        __aicore__ inline void Prepare()
        {
        }
    };

    int n_ = 0;
};
