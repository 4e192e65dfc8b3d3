#pragma once
#include "../moe_distribute_base.h"
template <typename XType>
class MoeDispatcher {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR expertIds, GM_ADDR ws, uint32_t worldSize, TPipe *pipe)
    {
        worldSize_ = worldSize;
        pipe->InitBuffer(sendQueue_, 2, 16 * 1024);
    }

    __aicore__ inline void Process()
    {
        uint32_t aivIdx = AscendC::GetSubBlockIdx();
        if (aivIdx == 0) {
            SendCoreFunc();
        } else {
            RecvCoreFunc();
        }
    }

private:
    __aicore__ inline void SendCoreFunc()
    {
        for (uint32_t dstRank = 0; dstRank < worldSize_; ++dstRank) {
            LocalTensor<XType> buf = sendQueue_.template AllocTensor<XType>();
            DataCopy(buf, xGM_[dstRank * tokenLen_], tokenLen_);
            SetStatus(dstRank, epoch_);
        }
    }

    __aicore__ inline void RecvCoreFunc()
    {
        for (uint32_t srcRank = 0; srcRank < worldSize_; ++srcRank) {
            int32_t status = 0;
            while (status != epoch_) {
                DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(
                    statusGM_[srcRank]);
                status = statusGM_.GetValue(srcRank);
            }
            CopyTokens(srcRank);
        }
    }

    uint32_t worldSize_ = 0;
    int32_t epoch_ = 1;
};
