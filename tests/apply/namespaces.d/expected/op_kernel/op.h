// A kernel class inside a namespace, with a free helper.
#pragma once
#include "op_base.h"

namespace ns {
__aicore__ inline void Combine(int n)
{
    MoeTracing(TRACE_POINT("processing combine", "B")); // autotrace
    for (int groupIdx = 0; groupIdx < n; groupIdx++) {
        MoeTracing(TRACE_POINT("processing combine group", "B"), groupIdx); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing combine group", "E"), groupIdx); // autotrace
    }
    MoeTracing(TRACE_POINT("processing combine", "E")); // autotrace
}

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        ns::Combine(2);
        Combine(3);
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }
};
} // namespace ns
