// vmodea on the AIV cores: dst = src.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void vmodea_kernel(GM_ADDR src, GM_ADDR dst, GM_ADDR tiling)
{
    if (ASCEND_IS_AIC)
        return;
    int64_t n = *reinterpret_cast<__gm__ int64_t *>(tiling);
    for (int64_t i = AscendC::GetBlockIdx(); i < n; i += AscendC::GetBlockNum() * 2)
        reinterpret_cast<__gm__ float *>(dst)[i] = reinterpret_cast<__gm__ float *>(src)[i];
}
