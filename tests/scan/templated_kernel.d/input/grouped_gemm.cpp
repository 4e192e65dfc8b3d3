#include "kernel_operator.h"

template <int D, typename T = half>
__global__ __aicore__ void grouped_gemm_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    GroupedGemm<D, T> gemm;
    gemm.Init(a, b, c);
    gemm.Run();
}

template __global__ __aicore__ void grouped_gemm_kernel<128>(GM_ADDR a, GM_ADDR b, GM_ADDR c);

extern "C" __global__ __aicore__ void grouped_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (td.headDim == 128) {
        grouped_gemm_kernel<128>(a, b, c);
    } else {
        grouped_gemm_kernel<64, float>(a, b, c);
    }
}
