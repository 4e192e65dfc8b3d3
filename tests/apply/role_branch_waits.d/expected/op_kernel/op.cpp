// Test operator: the kernel entry.
#include "op.h"

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
    RoleKernel<float> op;
    op.Process();
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}
