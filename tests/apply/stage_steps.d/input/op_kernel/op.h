// Test operator kernel class, in the forms of a shallow-dispatch MoE
// kernel: the AIV stage is a sequence of steps, each a call of the
// operator's own code. Every step that does work gets a point at its call
// (`steps` of the shipped stage rules), whatever its name:
// ComputeExpertTokenCounts and ReduceTokens as much as the named ones
// (AllGather..., Dispatch..., Combine..., the waits and the quantisation);
// book-keeping (ResetCounters: a merge rule's name) and making an object
// are no steps; the per-group loop is timed per iteration, its calls are not
// steps.
#pragma once
#include "op_base.h"
constexpr uint16_t SYNCFLAGC2V = 3;
constexpr uint16_t SYNCFLAGV2C = 4;
template <typename T>
class MoeShallowKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) { xGm_.SetGlobalBuffer((__gm__ T *)x); }
    __aicore__ inline void Process()
    {
        if (g_coreType == AscendC::AIC) {
            ProcessAic();
        } else {
            ProcessAiv();
        }
    }
private:
    __aicore__ inline void ProcessAic()
    {
        for (uint32_t groupIdx = 0; groupIdx < groupNum_; groupIdx++) {
            AscendC::CrossCoreWaitFlag(SYNCFLAGV2C);
            MatmulGroup(groupIdx);
            AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(SYNCFLAGC2V);
        }
    }
    __aicore__ inline void ProcessAiv()
    {
        ComputeExpertTokenCounts();
        AllGatherTokenCounts();
        QuantizeTokens();
        DispatchTokens();
        WaitRecvCount();
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(SYNCFLAGV2C);
        for (uint32_t groupIdx = 0; groupIdx < groupNum_; groupIdx++) {
            AscendC::CrossCoreWaitFlag(SYNCFLAGC2V);
            SwigluDequant(groupIdx);
        }
        CombineTokens();
        ReduceTokens();
        ResetCounters();
    }
    __aicore__ inline void MatmulGroup(uint32_t g) { for (uint32_t r = 0; r < g; r++) acc_ += r; }
    __aicore__ inline void ComputeExpertTokenCounts() { for (uint32_t r = 0; r < 8; r++) acc_ += xGm_.GetValue(r); }
    __aicore__ inline void AllGatherTokenCounts() { AscendC::SyncAll(); for (uint32_t r = 0; r < 8; r++) acc_ += r; }
    __aicore__ inline void QuantizeTokens() { for (uint32_t r = 0; r < 8; r++) acc_ *= 2; }
    __aicore__ inline void DispatchTokens() { for (uint32_t r = 0; r < 8; r++) acc_ += r; }
    __aicore__ inline void WaitRecvCount() { while (xGm_.GetValue(0) == 0) { } }
    __aicore__ inline void SwigluDequant(uint32_t g) { for (uint32_t r = 0; r < g; r++) acc_ += r; }
    __aicore__ inline void CombineTokens() { for (uint32_t r = 0; r < 8; r++) acc_ += r; }
    __aicore__ inline void ReduceTokens() { for (uint32_t r = 0; r < 8; r++) acc_ += r; }
    __aicore__ inline void ResetCounters() { for (uint32_t r = 0; r < 8; r++) counts_[r] = 0; }
    AscendC::GlobalTensor<T> xGm_;
    uint32_t groupNum_ = 4;
    T acc_ = 0;
    uint32_t counts_[8] = {};
};
