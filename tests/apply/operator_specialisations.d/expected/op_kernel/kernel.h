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
    MoeTracing(TRACE_POINT("processing aic", "B")); // autotrace
    for (int stageIdx = 0; stageIdx < n; stageIdx++) {
        MoeTracing(TRACE_POINT("processing aic stage", "B"), stageIdx); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing aic stage", "E"), stageIdx); // autotrace
    }
    MoeTracing(TRACE_POINT("processing aic", "E")); // autotrace
}

template <>
__aicore__ inline void Kernel::operator()<AscendC::AIV>(int n)
{
    MoeTracing(TRACE_POINT("processing aiv", "B")); // autotrace
    for (int stageIdx = 0; stageIdx < n; stageIdx++) {
        MoeTracing(TRACE_POINT("processing aiv stage", "B"), stageIdx); // autotrace
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(1);
        MoeTracing(TRACE_POINT("processing aiv stage", "E"), stageIdx); // autotrace
    }
    MoeTracing(TRACE_POINT("processing aiv", "E")); // autotrace
}
