// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process() { Stage(); n_++; }

private:
    __aicore__ inline void Stage() { n_ = 1; }

    int n_ = 0;
};
