// Test kernel entry: no root rule, so the root "processing" is the
// __global__ entry; its B goes after the runtime's set-up
// (MOE_TRACING_KERNEL_BEGIN) and its E before the teardown
// (MoeTracingKernelEnd), so the slot is ready before the first record and
// the last record is copied out.
#include <kernel_operator.h>
#include "moe_op.h"

extern "C" __global__ __aicore__ void moe_op(GM_ADDR x, GM_ADDR profiling, GM_ADDR workspace, GM_ADDR tiling)
{
    MOE_TRACING_KERNEL_BEGIN(profiling);
    MoeOp op;
    op.Init(x);
    op.Process();
    MoeTracingKernelEnd();
}
