#pragma once
constexpr uint16_t AIV_TO_AIC_FLAG = 3;
constexpr uint16_t AIC_TO_AIV_FLAG = 5;

__aicore__ inline void WaitPeer(__gm__ volatile int32_t *flagAddr, int32_t target)
{
    int32_t flag = 0;
    while (flag != target) {
        AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE,
                                           AscendC::DcciDst::CACHELINE_OUT>(flagGlobal);
        flag = *flagAddr;
    }
}

__aicore__ inline void SyncAicAiv()
{
    if ASCEND_IS_AIV {
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(AIV_TO_AIC_FLAG);
        AscendC::CrossCoreWaitFlag(AIC_TO_AIV_FLAG);
    }
    if ASCEND_IS_AIC {
        AscendC::CrossCoreWaitFlag(AIV_TO_AIC_FLAG);
        AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(AIC_TO_AIV_FLAG);
    }
}

__aicore__ inline void SpinOnGm(GlobalTensor<int32_t> &status, uint32_t rank)
{
    do {
        AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE,
                                           AscendC::DcciDst::CACHELINE_OUT>(status[rank]);
    } while (status.GetValue(rank) == 0);
    while (true) {
        if (status.GetValue(rank) >= epoch_) break;
    }
}
