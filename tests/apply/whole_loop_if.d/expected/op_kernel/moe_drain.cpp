// The whole-statement form: a loop timed over all its iterations, an if chain
// with all its arms, each picked by a call it makes; a loop that only waits
// and an if with one call per arm are also timed by the shipped heuristics,
// which the rule overrides.
#include "moe_drain_base.h"

class MoeDrain {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing drain", "B")); // autotrace
        for (uint32_t flagIdx = 0; flagIdx < 4; flagIdx++) {
            AscendC::CrossCoreWaitFlag<0x2>(flagIdx);
            Reduce(1);
        }
        MoeTracing(TRACE_POINT("processing drain", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing reduce", "B")); // autotrace
        if (rows_ > 0) {
            Reduce(rows_);
        } else if (rows_ == 0) {
            MoeTracing(TRACE_POINT("processing reduce", "E")); // autotrace
            return;
        } else {
            Reduce(1);
        }
        MoeTracing(TRACE_POINT("processing reduce", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing step", "B")); // autotrace
        for (uint32_t stepIdx = 0; stepIdx < 2; stepIdx++)
            Reduce(stepIdx);
        MoeTracing(TRACE_POINT("processing step", "E")); // autotrace
    }

private:
    __aicore__ inline void Reduce(uint32_t n) { rows_ -= n; }
    uint32_t rows_ = 16;
};

extern "C" __global__ __aicore__ void moe_drain(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
    MoeDrain op;
    op.Process();
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}
