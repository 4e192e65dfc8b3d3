// A published operator without the trace point runtime: apply creates
// op_kernel/add_op_base.h with it and includes it here.
#include "kernel_operator.h"
#include "add_op.h"
#include "add_op_base.h" // autotrace

extern "C" __global__ __aicore__ void add_op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    if (workspace == nullptr) {
        return;
    }
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
    AddOp op;
    op.Init(x, y);
    op.Process();
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}
