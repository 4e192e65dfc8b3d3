// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        if ASCEND_IS_AIC {
            n_++;
            Cube();
        }
        if ASCEND_IS_AIV {
            n_++;
            Vector();
        }
        if (g_coreType == AscendC::AIC) {
            Cube();
        } else {
            Vector();
        }
    }

private:
    __aicore__ inline void Cube()
    {
        AscendC::CrossCoreWaitFlag(1);
    }

    __aicore__ inline void Vector()
    {
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(1);
    }

    int n_ = 0;
};
