// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        n_ = 0;
        Begin();
        if (n_ < 0) {
            return;
        }
        End();
        n_ = 3;
    }

private:
    __aicore__ inline void Begin()
    {
        n_ = 1;
    }

    __aicore__ inline void End()
    {
        n_ = 2;
    }

    int n_ = 0;
};
