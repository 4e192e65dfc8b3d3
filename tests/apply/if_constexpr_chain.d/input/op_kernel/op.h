// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Run<true>();
    }

private:
    template <bool IsQuant>
    __aicore__ inline void Run()
    {
        if constexpr (IsQuant) {
            Quantize();
        } else if constexpr (sizeof(int) == 8) {
            n_ = 8;
        } else {
            n_ = 0;
        }
        if constexpr (!IsQuant)
            n_++;
    }

    __aicore__ inline void Quantize()
    {
        n_ = 1;
    }

    int n_ = 0;
};
