// Test stages: a dispatcher and a combiner that the operator uses, and a
// reducer of the same shape that it does not.
#pragma once
#include "op_base.h"

class Dispatcher {
public:
    __aicore__ inline void Init(uint32_t tokens) { tokens_ = tokens; }

    __aicore__ inline void Run()
    {
        MoeTracing(TRACE_POINT("processing function", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(2);
        sent_ = tokens_;
        MoeTracing(TRACE_POINT("processing function", "E")); // autotrace
    }

private:
    uint32_t tokens_ = 0;
    uint32_t sent_ = 0;
};

class Combiner {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing function-2", "B")); // autotrace
        AscendC::SyncAll<false>();
        combined_++;
        MoeTracing(TRACE_POINT("processing function-2", "E")); // autotrace
    }

private:
    uint32_t combined_ = 0;
};

// A stage of the same shape that the operator does not use: no point.
class Reducer {
public:
    __aicore__ inline void Run()
    {
        AscendC::CrossCoreWaitFlag(3);
    }
};
