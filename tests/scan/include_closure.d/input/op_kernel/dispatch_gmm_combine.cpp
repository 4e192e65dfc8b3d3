#include "kernel_operator.h"
#include "dispatch_gmm_combine.h"

extern "C" __global__ __aicore__ void dispatch_gmm_combine(GM_ADDR x, GM_ADDR w, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    DispatchGmmCombine<half> op;
    op.Init(x, w, y, workspace, tiling);
    op.Process();
}
