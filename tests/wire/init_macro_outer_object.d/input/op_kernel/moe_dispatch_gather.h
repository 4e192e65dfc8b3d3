// A second kernel class of the operator with the same Init: the gather alone.
#ifndef MOE_DISPATCH_GATHER_H
#define MOE_DISPATCH_GATHER_H
#include "kernel_operator.h"
#include "moe_distribute_dispatch_gmm_tiling.h"

class MoeDispatchGather {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2,
                                GM_ADDR scale, GM_ADDR y, GM_ADDR expertTokenNums, GM_ADDR workspace,
                                const MoeDistributeDispatchGmmTilingData *tiling)
    {
        x_ = x;
        y_ = y;
        (void)expertIds, (void)weight1, (void)weight2, (void)scale, (void)expertTokenNums, (void)workspace;
        tiling_ = tiling;
    }
    __aicore__ inline void Process() {}

private:
    GM_ADDR x_ = nullptr;
    GM_ADDR y_ = nullptr;
    const MoeDistributeDispatchGmmTilingData *tiling_ = nullptr;
};
#endif
