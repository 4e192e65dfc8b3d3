// MoeDistributeDispatchGmm: kernel class whose Init takes the tiling alone;
// Process takes the GM tensors (inputs, then outputs) and runs one side of the kernel.
#ifndef MOE_DISTRIBUTE_DISPATCH_GMM_H
#define MOE_DISTRIBUTE_DISPATCH_GMM_H

#include "moe_distribute_dispatch_gmm_base.h"
#include "gemm/kernel/grouped_matmul_dispatch_kernel.h"

class MoeDistributeDispatchGmm {
public:
    __aicore__ inline MoeDistributeDispatchGmm() {}

    __aicore__ inline void Init(const MoeDistributeDispatchGmmTilingData *tiling)
    {
        params_.tiling = *tiling;
    }

    __aicore__ inline void Process(GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight1, GM_ADDR weight2,
                                   GM_ADDR scale, GM_ADDR y, GM_ADDR expertTokenNums, GM_ADDR workspace)
    {
        params_.x = x;
        params_.expertIds = expertIds;
        params_.weight1 = weight1;
        params_.weight2 = weight2;
        params_.scale = scale;
        params_.y = y;
        params_.expertTokenNums = expertTokenNums;
        params_.workspace = workspace;
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
