// Member definitions of Op.
#pragma once
#include "op_class.h++"

template <typename T>
__aicore__ inline void Op<T>::Process()
{
    Prepare();
    Compute(3);
    Finish();
}

template <typename T>
__aicore__ inline void Op<T>::Prepare()
{
    x_ = 1;
}
