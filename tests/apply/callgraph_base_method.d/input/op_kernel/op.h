// Test operator kernel class: two stages built on one base class.
#pragma once
#include "stages.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        dispatch_.Run();
        combine_.Run();
    }

private:
    DispatchStage dispatch_;
    CombineStage<float> combine_;
};
