// Test operator kernel class.
#pragma once
#include "kernel.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        if ASCEND_IS_AIC {
            kernel_.operator()<AscendC::AIC>(2);
        }
        if ASCEND_IS_AIV {
            kernel_.operator()<AscendC::AIV>(2);
        }
    }

private:
    Kernel kernel_;
};
