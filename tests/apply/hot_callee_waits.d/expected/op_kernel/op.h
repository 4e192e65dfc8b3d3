// Test operator kernel class: a hot call is one interval. WaitFlagDev, a
// helper around the library's wait (as mla_preprocess's kernel/utils.h has
// it), gets its point at each call, told apart by its argument; the wait
// inside it gets none of its own (it was nested under the first call's
// point, labelled for no core).
#pragma once
#include "op_base.h"

__aicore__ inline void WaitFlagDev(uint16_t flagId)
{
    AscendC::WaitEvent(flagId);
}

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        MoeTracing(TRACE_POINT("processing wait-flag-dev 1", "B")); // autotrace
        WaitFlagDev(1);
        MoeTracing(TRACE_POINT("processing wait-flag-dev 1", "E")); // autotrace
        n_++;
        MoeTracing(TRACE_POINT("processing wait-flag-dev 2", "B")); // autotrace
        WaitFlagDev(2);
        MoeTracing(TRACE_POINT("processing wait-flag-dev 2", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    uint32_t n_ = 4;
};
