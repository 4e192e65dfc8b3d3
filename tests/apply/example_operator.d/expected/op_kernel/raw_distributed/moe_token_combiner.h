// MoeTokenCombiner: combine on the vector cores - copies each row of a group's GMM2 output back to
// the position of the token it came from; the two AIV cores of a group take alternate rows.
#ifndef RAW_DISTRIBUTED_MOE_TOKEN_COMBINER_H
#define RAW_DISTRIBUTED_MOE_TOKEN_COMBINER_H

#include "../moe_distribute_dispatch_gmm_base.h"

class MoeTokenCombiner {
public:
    CATLASS_DEVICE MoeTokenCombiner() {}

    CATLASS_DEVICE void Init(GM_ADDR y, GM_ADDR workspace, const MoeDistributeDispatchGmmTilingData &tiling,
                             AscendC::TPipe *pipe)
    {
        tokenNum_ = tiling.tokenNum;
        hiddenSize_ = tiling.hiddenSize;
        yGm_.SetGlobalBuffer((__gm__ float *)y);
        gatherGm_.SetGlobalBuffer((__gm__ int32_t *)(workspace + tiling.gatherOffset));
        gmm2Gm_.SetGlobalBuffer((__gm__ float *)(workspace + tiling.gmm2Offset));
        pipe->InitBuffer(ubRow_, hiddenSize_ * sizeof(float));
    }

    CATLASS_DEVICE void CombineFunc(uint32_t groupIdx, uint32_t rows, uint32_t rowBegin, uint32_t rowStep)
    {
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv combine-func", "B")); // autotrace
        AscendC::LocalTensor<float> row = ubRow_.Get<float>();
        for (uint32_t tileIdx = rowBegin; tileIdx < rows; tileIdx += rowStep) {
            uint64_t src = ((uint64_t)groupIdx * tokenNum_ + tileIdx) * hiddenSize_;
            int32_t tokenIdx = gatherGm_.GetValue((uint64_t)groupIdx * tokenNum_ + tileIdx);
            AscendC::DataCopy(row, gmm2Gm_[src], hiddenSize_);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(AscendC::EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(AscendC::EVENT_ID0);
            AscendC::DataCopy(yGm_[(uint64_t)tokenIdx * hiddenSize_], row, hiddenSize_);
        }
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv combine-func", "E")); // autotrace
    }

private:
    AscendC::GlobalTensor<float> yGm_;
    AscendC::GlobalTensor<int32_t> gatherGm_;
    AscendC::GlobalTensor<float> gmm2Gm_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ubRow_;
    uint32_t tokenNum_ = 0;
    uint32_t hiddenSize_ = 0;
};

#endif
