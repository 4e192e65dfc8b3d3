// shrink on the AIV cores: each takes an equal share of the elements.
#include "kernel_operator.h"

class Kernel_shrink {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR tiling)
    {
        x_ = reinterpret_cast<__gm__ float *>(x);
        w_ = reinterpret_cast<__gm__ float *>(w);
        y_ = reinterpret_cast<__gm__ float *>(y);
        n_ = *reinterpret_cast<__gm__ int64_t *>(tiling);
    }

    __aicore__ inline void Process()
    {
        if (ASCEND_IS_AIC)
            return;
        int64_t cores = AscendC::GetBlockNum() * 2;
        for (int64_t i = AscendC::GetBlockIdx(); i < n_; i += cores)
            y_[i] = x_[i] - w_[i];
    }

private:
    __gm__ float *x_ = nullptr;
    __gm__ float *w_ = nullptr;
    __gm__ float *y_ = nullptr;
    int64_t n_ = 0;
};

extern "C" __global__ __aicore__ void shrink(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR tiling)
{
    Kernel_shrink op;
    op.Init(x, w, y, tiling);
    op.Process();
}
