// Test operator kernel class: the stages whose loops `in` blocks scope.
#pragma once
#include "combine.h"
#include "dispatch.h"
#include "gmm.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        dispatch_.Run(rows_);
        gmm_.Gmm1(rows_);
        gmm_.Gmm2(rows_);
        combine_.Run(rows_);
        combine_.Flush(rows_);
    }

private:
    Dispatch dispatch_;
    Gmm gmm_;
    Combine combine_;
    uint32_t rows_ = 4;
};
