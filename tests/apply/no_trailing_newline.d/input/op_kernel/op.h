// No newline at the end.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        n_ = 1;
    }
    int n_ = 0;
};