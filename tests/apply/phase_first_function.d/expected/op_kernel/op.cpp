// Test operator: the kernel entry runs the cube and the vector halves of
// one operation object, as an MLA-preprocess-like mixed kernel does.
#include "op.h"

extern "C" __global__ __aicore__ void op(GM_ADDR x, GM_ADDR tiling)
{
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
    PreprocessOperation<float> op;
    op.Init(x);
    if ASCEND_IS_AIC {
        MoeTracing(TRACE_POINT("processing aic", "B")); // autotrace
        op.ProcessCube();
        MoeTracing(TRACE_POINT("processing aic", "E")); // autotrace
    }
    if ASCEND_IS_AIV {
        MoeTracing(TRACE_POINT("processing aiv", "B")); // autotrace
        op.ProcessVector();
        MoeTracing(TRACE_POINT("processing aiv", "E")); // autotrace
    }
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}
