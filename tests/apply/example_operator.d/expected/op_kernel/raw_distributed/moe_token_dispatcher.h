// MoeTokenDispatcher: dispatch of tokens to expert groups on the vector cores. The send core packs
// the tokens routed to a group into the group's window; the recv core waits for the window, then
// records where each packed row came from and how many rows the group holds.
#ifndef RAW_DISTRIBUTED_MOE_TOKEN_DISPATCHER_H
#define RAW_DISTRIBUTED_MOE_TOKEN_DISPATCHER_H

#include "../moe_distribute_dispatch_gmm_base.h"

class MoeTokenDispatcher {
public:
    CATLASS_DEVICE MoeTokenDispatcher() {}

    CATLASS_DEVICE void Init(GM_ADDR x, GM_ADDR expertIds, GM_ADDR expertTokenNums, GM_ADDR workspace,
                             const MoeDistributeDispatchGmmTilingData &tiling, AscendC::TPipe *pipe)
    {
        tokenNum_ = tiling.tokenNum;
        hiddenSize_ = tiling.hiddenSize;
        xGm_.SetGlobalBuffer((__gm__ float *)x);
        expertIdsGm_.SetGlobalBuffer((__gm__ int32_t *)expertIds);
        expertTokenNumsGm_.SetGlobalBuffer((__gm__ int64_t *)expertTokenNums);
        windowGm_.SetGlobalBuffer((__gm__ float *)(workspace + tiling.windowOffset));
        gatherGm_.SetGlobalBuffer((__gm__ int32_t *)(workspace + tiling.gatherOffset));
        pipe->InitBuffer(ubToken_, hiddenSize_ * sizeof(float));
    }

    CATLASS_DEVICE void SendCoreFunc(uint32_t groupIdx)
    {
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv send-core-func", "B")); // autotrace
        uint32_t rows = 0;
        for (uint32_t tokenIdx = 0; tokenIdx < tokenNum_; tokenIdx++) {
            if ((uint32_t)expertIdsGm_.GetValue(tokenIdx) == groupIdx) {
                CopyTokenToWindow(tokenIdx, groupIdx, rows++);
            }
        }
        AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(FLAG_WINDOW_READY);
        MoeTracing(TRACE_POINT("grouped-matmul-dispatch aiv send-core-func", "E")); // autotrace
    }

    CATLASS_DEVICE void RecvCoreFunc(uint32_t groupIdx)
    {
        MoeTracing(TRACE_POINT("recv-core-func aiv", "B")); // autotrace
        MoeTracing(TRACE_POINT("recv-core-func aiv cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(FLAG_WINDOW_READY);
        MoeTracing(TRACE_POINT("recv-core-func aiv cross-core-wait-flag", "E")); // autotrace
        uint32_t rows = 0;
        for (uint32_t tokenIdx = 0; tokenIdx < tokenNum_; tokenIdx++) {
            if ((uint32_t)expertIdsGm_.GetValue(tokenIdx) == groupIdx) {
                gatherGm_.SetValue((uint64_t)groupIdx * tokenNum_ + rows++, (int32_t)tokenIdx);
            }
        }
        expertTokenNumsGm_.SetValue(groupIdx, rows);
        MoeTracing(TRACE_POINT("recv-core-func aiv", "E")); // autotrace
    }

private:
    CATLASS_DEVICE void CopyTokenToWindow(uint32_t tokenIdx, uint32_t groupIdx, uint32_t row)
    {
        AscendC::LocalTensor<float> token = ubToken_.Get<float>();
        AscendC::DataCopy(token, xGm_[(uint64_t)tokenIdx * hiddenSize_], hiddenSize_);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(AscendC::EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(AscendC::EVENT_ID0);
        uint64_t dst = ((uint64_t)groupIdx * tokenNum_ + row) * hiddenSize_;
        AscendC::DataCopy(windowGm_[dst], token, hiddenSize_);
    }

    AscendC::GlobalTensor<float> xGm_;
    AscendC::GlobalTensor<int32_t> expertIdsGm_;
    AscendC::GlobalTensor<int64_t> expertTokenNumsGm_;
    AscendC::GlobalTensor<float> windowGm_;
    AscendC::GlobalTensor<int32_t> gatherGm_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ubToken_;
    uint32_t tokenNum_ = 0;
    uint32_t hiddenSize_ = 0;
};

#endif
