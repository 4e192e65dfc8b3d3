// Kernel entry of the test operator.
#include "op.h"

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    (void)x;
    ns::Op op;
    op.Process();
}
