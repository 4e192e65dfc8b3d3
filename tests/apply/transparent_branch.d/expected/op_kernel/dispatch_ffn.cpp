// Kernel entry of the test operator.
#include "kernel_operator.h"
#include "dispatch_ffn_kernel.h"

extern "C" __global__ __aicore__ void dispatch_ffn(GM_ADDR x, GM_ADDR workspaceGM, GM_ADDR tilingGM)
{
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    Params params{4, 128};
    DispatchFFNKernel op;
    if ASCEND_IS_AIC {
        op.operator()<AscendC::AIC>(params);
    }
    if ASCEND_IS_AIV {
        op.operator()<AscendC::AIV>(params);
    }
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}
