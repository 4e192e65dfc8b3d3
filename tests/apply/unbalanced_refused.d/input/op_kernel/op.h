// Test operator kernel class; its helper header has one '{' too many.
#pragma once
#include "op_base.h"
#include "op_more.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Prepare();
        Compute(3);
    }

private:
    __aicore__ inline void Prepare()
    {
        x_ = 1;
    }

    int x_ = 0;
};
