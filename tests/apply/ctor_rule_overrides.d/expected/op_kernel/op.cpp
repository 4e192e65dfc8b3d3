// Test operator: a class named like a stage (TokenDispatcher) whose
// constructor splits by core type. The default policy gives the constructor
// no points (it sets the object up) unless a later rule names it; its
// Dispatch() is the stage.
#include "op_base.h"

class TokenDispatcher {
public:
    __aicore__ inline TokenDispatcher(GM_ADDR x)
    {
        MoeTracing(TRACE_POINT("setup", "B")); // autotrace
        if ASCEND_IS_AIC {
            core_ = 0;
        }
        if ASCEND_IS_AIV {
            core_ = 1;
        }
        x_ = x;
        MoeTracing(TRACE_POINT("setup", "E")); // autotrace
    }
    __aicore__ inline void Dispatch()
    {
        MoeTracing(TRACE_POINT("dispatch", "B")); // autotrace
        for (uint32_t groupIdx = 0; groupIdx < 4; groupIdx++) {
            MoeTracing(TRACE_POINT("dispatch moe-process", "B"), groupIdx); // autotrace
            MoeTracing(TRACE_POINT("dispatch cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(core_);
            MoeTracing(TRACE_POINT("dispatch cross-core-wait-flag", "E")); // autotrace
            MoeTracing(TRACE_POINT("dispatch moe-process", "E"), groupIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("dispatch", "E")); // autotrace
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
