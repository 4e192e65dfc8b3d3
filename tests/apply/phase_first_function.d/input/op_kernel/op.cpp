// Test operator: the kernel entry runs the cube and the vector halves of
// one operation object, as an MLA-preprocess-like mixed kernel does.
#include "op.h"

extern "C" __global__ __aicore__ void op(GM_ADDR x, GM_ADDR tiling)
{
    PreprocessOperation<float> op;
    op.Init(x);
    if ASCEND_IS_AIC {
        op.ProcessCube();
    }
    if ASCEND_IS_AIV {
        op.ProcessVector();
    }
}
