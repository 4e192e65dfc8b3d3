// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        L2();
    }

private:
    __aicore__ inline void L2()
    {
        L3();
    }

    __aicore__ inline void L3()
    {
        L4();
    }

    __aicore__ inline void L4()
    {
        L5();
    }

    __aicore__ inline void L5()
    {
        L6();
    }

    __aicore__ inline void L6()
    {
        L7();
    }

    __aicore__ inline void L7()
    {
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
