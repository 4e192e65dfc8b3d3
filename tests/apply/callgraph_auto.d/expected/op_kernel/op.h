// Test operator kernel class: objects declared with `auto` -- a pointer to a
// member (`auto *combiner = &combiner_;`) and a value initialised by a
// constructor call (`auto d = Dispatcher();`) -- are followed to
// Combiner::Process and Dispatcher::Run.
#pragma once
#include "stages.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        auto d = Dispatcher();
        d.Init(tokens_);
        d.Run();
        auto *combiner = &combiner_;
        combiner->Process();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    Combiner combiner_;
    uint32_t tokens_ = 16;
};
