// A function name the rules' regex backtracks on without bound.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab();
    }

private:
    __aicore__ inline void aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab()
    {
        x_ = 1;
    }

    int x_ = 0;
};
