// Test operator: a kernel entry that runs one class, as most vector
// kernels do; no stage of it has a name any rule knows.
#include "op.h"

extern "C" __global__ __aicore__ void op(GM_ADDR x, GM_ADDR y)
{
    KernelOp<float> op;
    op.Init(x, y);
    op.Process();
}
