// Test operator kernel class: the epilogue type is a specialisation chosen
// by its policy argument.
#pragma once
#include "epilogue.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        using E = Epilogue<PolicyB<int32_t>>;
        E e;
        e(rows_);
    }

private:
    uint32_t rows_ = 8;
};
