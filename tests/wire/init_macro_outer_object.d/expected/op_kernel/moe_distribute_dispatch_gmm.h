// MoeDistributeDispatchGmm: kernel class of the fused MoE dispatch + grouped matmul operator.
// Init binds the GM tensors in the order of the OpDef (inputs, then outputs);
// Process runs the cube or the vector side of GroupedMatmulDispatchKernel.
#ifndef MOE_DISTRIBUTE_DISPATCH_GMM_H
#define MOE_DISTRIBUTE_DISPATCH_GMM_H

#include "moe_distribute_dispatch_gmm_base.h"
#include "gemm/kernel/grouped_matmul_dispatch_kernel.h"

class MoeDistributeDispatchGmm {
public:
    __aicore__ inline MoeDistributeDispatchGmm() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2,
                                GM_ADDR scale, GM_ADDR y, GM_ADDR expertTokenNums, GM_ADDR workspace,
                                const MoeDistributeDispatchGmmTilingData *tiling)
    {
        params_.x = x;
        params_.expertIds = expertIds;
        params_.weight1 = weight1;
        params_.weight2 = weight2;
        params_.scale = scale;
        params_.y = y;
        params_.expertTokenNums = expertTokenNums;
        params_.workspace = workspace;
        params_.tiling = *tiling;
    }

    __aicore__ inline void Process()
    {
        if ASCEND_IS_AIC {
            kernel_.operator()<AscendC::AIC>(params_);
        }
        if ASCEND_IS_AIV {
            kernel_.operator()<AscendC::AIV>(params_);
        }
    }

private:
    GroupedMatmulDispatchKernel::Params params_;
    GroupedMatmulDispatchKernel kernel_;
};

#endif
