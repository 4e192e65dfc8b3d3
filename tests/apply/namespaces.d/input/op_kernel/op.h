// A kernel class inside a namespace, with a free helper.
#pragma once
#include "op_base.h"

namespace ns {
__aicore__ inline void Combine(int n)
{
    for (int groupIdx = 0; groupIdx < n; groupIdx++) {
        AscendC::CrossCoreWaitFlag(1);
    }
}

class Op {
public:
    __aicore__ inline void Process()
    {
        ns::Combine(2);
        Combine(3);
    }
};
} // namespace ns
