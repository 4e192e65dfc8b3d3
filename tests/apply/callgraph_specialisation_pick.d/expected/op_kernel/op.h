// Test operator kernel class: the epilogue type is a specialisation chosen
// by its policy argument.
#pragma once
#include "epilogue.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        using E = Epilogue<PolicyB<int32_t>>;
        E e;
        e(rows_);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    uint32_t rows_ = 8;
};
