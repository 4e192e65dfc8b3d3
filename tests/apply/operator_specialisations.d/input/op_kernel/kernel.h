// The block kernel: one specialisation per core type.
#pragma once
#include "op_base.h"

class Kernel {
public:
    template <int32_t CORE_TYPE>
    __aicore__ inline void operator()(int n);
};

template <>
__aicore__ inline void Kernel::operator()<AscendC::AIC>(int n)
{
    for (int stageIdx = 0; stageIdx < n; stageIdx++) {
        AscendC::CrossCoreWaitFlag(1);
    }
}

template <>
__aicore__ inline void Kernel::operator()<AscendC::AIV>(int n)
{
    for (int stageIdx = 0; stageIdx < n; stageIdx++) {
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(1);
    }
}
