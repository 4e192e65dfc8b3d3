#pragma once
class Resource {
public:
    __aicore__ inline Resource() = default;
    __aicore__ inline ~Resource() = default;
    Resource(const Resource &) = delete;
    Resource &operator=(const Resource &) = delete;
    __aicore__ inline explicit Resource(TPipe *pipe) : pipe_(pipe), bufs_{} { pipe_->Reset(); }
    virtual void Release() = 0;
    __aicore__ inline bool operator==(const Resource &o) const { return pipe_ == o.pipe_; }
private:
    TPipe *pipe_ = nullptr;
    uint32_t bufs_[4];
};
