// Member definitions of Op.
#pragma once
#include "op_class.h++"

template <typename T>
__aicore__ inline void Op<T>::Process()
{
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
    Prepare();
    Compute(3);
    Finish();
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}

template <typename T>
__aicore__ inline void Op<T>::Prepare()
{
    MoeTracing(TRACE_POINT("processing prepare", "B")); // autotrace
    x_ = 1;
    MoeTracing(TRACE_POINT("processing prepare", "E")); // autotrace
}
