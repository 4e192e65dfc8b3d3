// Test operator kernel class: the stages whose loops `in` blocks scope.
#pragma once
#include "combine.h"
#include "dispatch.h"
#include "gmm.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        dispatch_.Run(rows_);
        gmm_.Gmm1(rows_);
        gmm_.Gmm2(rows_);
        combine_.Run(rows_);
        combine_.Flush(rows_);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    Dispatch dispatch_;
    Gmm gmm_;
    Combine combine_;
    uint32_t rows_ = 4;
};
