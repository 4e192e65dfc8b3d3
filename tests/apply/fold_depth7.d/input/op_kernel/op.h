// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        n_++;
        L2();
    }

private:
    __aicore__ inline void L2()
    {
        n_++;
        L3();
    }

    __aicore__ inline void L3()
    {
        n_++;
        L4();
    }

    __aicore__ inline void L4()
    {
        n_++;
        L5();
    }

    __aicore__ inline void L5()
    {
        n_++;
        L6();
    }

    __aicore__ inline void L6()
    {
        n_++;
        L7();
    }

    __aicore__ inline void L7()
    {
        n_++;
        L8();
    }

    __aicore__ inline void L8()
    {
        L9();
    }

    __aicore__ inline void L9()
    {
        n_++;
    }

    int n_ = 0;
};
