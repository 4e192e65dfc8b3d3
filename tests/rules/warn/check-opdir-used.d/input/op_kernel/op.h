// The operator of check-opdir under its rules without the two that do
// nothing: `rules check .` warns at none.
#pragma once
#include <kernel_operator.h>

class Op {
public:
    __aicore__ inline void Process()
    {
        Gmm1();
    }

private:
    __aicore__ inline void Gmm1()
    {
        AscendC::CrossCoreWaitFlag(1);
    }
};
