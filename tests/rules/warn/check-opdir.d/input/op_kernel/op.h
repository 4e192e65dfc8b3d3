// An operator whose rules have one that a later rule always overrides and
// one that matches nothing: `rules check .` warns at both, exit 0.
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
