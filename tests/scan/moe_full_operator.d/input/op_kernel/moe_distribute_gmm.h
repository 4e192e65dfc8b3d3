#ifndef MOE_DISTRIBUTE_GMM_H
#define MOE_DISTRIBUTE_GMM_H
#include "moe_distribute_base.h"
#include "raw_distributed/moe_dispatcher.h"
#include "gemm/kernel/grouped_matmul_dequant.h"

namespace MoeDistributeGmm {
template <typename XType, bool IsQuant>
class MoeDistributeGmmOp {
public:
    __aicore__ inline MoeDistributeGmmOp() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight, GM_ADDR scale, GM_ADDR y,
                                GM_ADDR workspace, const MoeDistributeGmmTilingData *tiling, TPipe *pipe);
    __aicore__ inline void Process();

private:
    MoeDispatcher<XType> dispatcher_;
    Catlass::Gemm::Kernel::GroupedMatmulDequant<IsQuant> gmm_;
    typename Catlass::Gemm::Kernel::GroupedMatmulDequant<IsQuant>::Params gmmParams_;
};

template <typename XType, bool IsQuant>
__aicore__ inline void MoeDistributeGmmOp<XType, IsQuant>::Init(GM_ADDR x, GM_ADDR expertIds, GM_ADDR weight,
    GM_ADDR scale, GM_ADDR y, GM_ADDR workspace, const MoeDistributeGmmTilingData *tiling, TPipe *pipe)
{
    dispatcher_.Init(x, expertIds, workspace, tiling->epWorldSize, pipe);
    gmmParams_.groupCount = tiling->groupNum;
}

template <typename XType, bool IsQuant>
__aicore__ inline void MoeDistributeGmmOp<XType, IsQuant>::Process()
{
    if ASCEND_IS_AIV {
        dispatcher_.Process();
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNC_AIV_AIC_FLAG);
    }
    if ASCEND_IS_AIC {
        AscendC::CrossCoreWaitFlag(SYNC_AIV_AIC_FLAG);
    }
    gmm_(gmmParams_);
}
} // namespace MoeDistributeGmm
#endif
