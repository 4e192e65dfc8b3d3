// vrelu_ on the AIV cores.
#include "kernel_operator.h"
#include "vrelu_kernel_base.h"

extern "C" __global__ __aicore__ void vrelu_kernel(GM_ADDR x, GM_ADDR profilingData, GM_ADDR tiling)
{
    MOE_TRACING_KERNEL_SCOPE(profilingData);
    if (ASCEND_IS_AIC)
        return;
    int64_t n = *reinterpret_cast<__gm__ int64_t *>(tiling);
    __gm__ float *v = reinterpret_cast<__gm__ float *>(x);
    for (int64_t i = AscendC::GetBlockIdx(); i < n; i += AscendC::GetBlockNum() * 2)
        v[i] = v[i] < 0 ? 0 : v[i];
}
