// The kernel class, declared only.
#pragma once
#include "op_base.h"

template <typename T>
class Op {
public:
    __aicore__ inline void Process();

private:
    __aicore__ inline void Prepare();
    __aicore__ inline void Compute(int n);
    __aicore__ inline void Finish();

    T x_ = 0;
};
