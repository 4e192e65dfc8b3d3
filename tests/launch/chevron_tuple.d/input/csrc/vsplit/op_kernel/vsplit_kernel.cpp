// vsplit on the AIV cores, through a kernel class whose Init is defined out of the class.
#include "kernel_operator.h"

class KernelSplit {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR lo, GM_ADDR hi, GM_ADDR tiling);
    __aicore__ inline void Process();

private:
    __gm__ float *x_ = nullptr, *lo_ = nullptr, *hi_ = nullptr;
    int64_t n_ = 0;
};

__aicore__ inline void KernelSplit::Init(GM_ADDR x, GM_ADDR lo, GM_ADDR hi, GM_ADDR tiling)
{
    x_ = reinterpret_cast<__gm__ float *>(x);
    lo_ = reinterpret_cast<__gm__ float *>(lo);
    hi_ = reinterpret_cast<__gm__ float *>(hi);
    n_ = *reinterpret_cast<__gm__ int64_t *>(tiling);
}

__aicore__ inline void KernelSplit::Process()
{
    if (ASCEND_IS_AIC)
        return;
    int64_t cores = AscendC::GetBlockNum() * 2;
    for (int64_t i = AscendC::GetBlockIdx(); i < n_; i += cores) {
        float whole = (float)(int64_t)x_[i];
        hi_[i] = whole;
        lo_[i] = x_[i] - whole;
    }
}

extern "C" __global__ __aicore__ void vsplit_kernel(GM_ADDR x, GM_ADDR lo, GM_ADDR hi, GM_ADDR tiling)
{
    KernelSplit op;
    op.Init(x, lo, hi, tiling);
    op.Process();
}
