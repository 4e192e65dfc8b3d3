// The arithmetic of Op.
#pragma once
#include "op_class.h++"

template <typename T>
__aicore__ inline void Op<T>::Compute(int n)
{
    MoeTracing(TRACE_POINT("processing function", "B")); // autotrace
    x_ += n;
    MoeTracing(TRACE_POINT("processing function", "E")); // autotrace
}

template <typename T>
__aicore__ inline void Op<T>::Finish()
{
    MoeTracing(TRACE_POINT("processing finish", "B")); // autotrace
    x_ *= 2;
    MoeTracing(TRACE_POINT("processing finish", "E")); // autotrace
}
