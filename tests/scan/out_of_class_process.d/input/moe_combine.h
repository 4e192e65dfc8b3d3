#pragma once
template <typename T, bool IsQuant>
class MoeCombine {
public:
    __aicore__ inline MoeCombine() = default;
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, TPipe *pipe);
    __aicore__ inline void Process();
private:
    __aicore__ inline void CombineRecv(uint32_t expertIdx);
    TPipe *pipe_;
};

template <typename T, bool IsQuant>
__aicore__ inline void MoeCombine<T, IsQuant>::Init(GM_ADDR x, GM_ADDR y, TPipe *pipe)
{
    pipe_ = pipe;
    xGM_.SetGlobalBuffer((__gm__ T *)x);
    pipe_->InitBuffer(queue_, 2, 32 * 1024);
}

template <typename T, bool IsQuant>
__aicore__ inline void MoeCombine<T, IsQuant>::Process()
{
    for (uint32_t expertIdx = 0; expertIdx < expertNum_; expertIdx++) {
        CombineRecv(expertIdx);
    }
    SyncAll<true>();
}

template <typename T, bool IsQuant>
__aicore__ inline void MoeCombine<T, IsQuant>::CombineRecv(uint32_t expertIdx)
{
    LocalTensor<T> buf = queue_.AllocTensor<T>();
    DataCopy(buf, xGM_[expertIdx * tokenLen_], tokenLen_);
    queue_.EnQue(buf);
}
