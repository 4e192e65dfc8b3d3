// The arithmetic of Op.
#pragma once
#include "op_class.h++"

template <typename T>
__aicore__ inline void Op<T>::Compute(int n)
{
    x_ += n;
}

template <typename T>
__aicore__ inline void Op<T>::Finish()
{
    x_ *= 2;
}
