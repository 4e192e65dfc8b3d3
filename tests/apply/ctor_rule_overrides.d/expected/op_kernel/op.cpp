// Test operator: a class named like a stage (TokenDispatcher) whose
// constructor splits by core type. The default policy gives the constructor
// no points (it sets the object up) unless a later rule names it; its
// Dispatch() is the stage.
#include "op_base.h"

class TokenDispatcher {
public:
    __aicore__ inline TokenDispatcher(GM_ADDR x)
    {
        MoeTracing(TRACE_POINT("mix setup", "B")); // autotrace
        if ASCEND_IS_AIC {
            MoeTracing(TRACE_POINT("mix setup aic", "B")); // autotrace
            core_ = 0;
            MoeTracing(TRACE_POINT("mix setup aic", "E")); // autotrace
        }
        if ASCEND_IS_AIV {
            MoeTracing(TRACE_POINT("mix setup aiv", "B")); // autotrace
            core_ = 1;
            MoeTracing(TRACE_POINT("mix setup aiv", "E")); // autotrace
        }
        x_ = x;
        MoeTracing(TRACE_POINT("mix setup", "E")); // autotrace
    }
    __aicore__ inline void Dispatch()
    {
        MoeTracing(TRACE_POINT("dispatch mix", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < 4; groupIdx++) {
            MoeTracing(TRACE_POINT("dispatch mix moe-process", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("dispatch mix cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(core_);
            MoeTracing(TRACE_POINT("dispatch mix cross-core-wait-flag", "E")); // autotrace
            MoeTracing(TRACE_POINT("dispatch mix moe-process", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("dispatch mix", "E")); // autotrace
    }

private:
    GM_ADDR x_;
    int core_ = 0;
};

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
    TokenDispatcher d(x);
    d.Dispatch();
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}
