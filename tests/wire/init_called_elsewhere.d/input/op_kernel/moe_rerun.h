// A helper of the kernel that runs the whole kernel class again on other buffers.
#ifndef MOE_RERUN_H
#define MOE_RERUN_H
#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm.h"

__aicore__ inline void Rerun(GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2, GM_ADDR scale,
                             GM_ADDR y, GM_ADDR expertTokenNums, GM_ADDR workspace,
                             const MoeDistributeDispatchGmmTilingData *tiling)
{
    MoeDistributeDispatchGmm again;
    again.Init(x, expertIds, weight1, weight2, scale, y, expertTokenNums, workspace, tiling);
    again.Process();
}
#endif
