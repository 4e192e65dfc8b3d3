// vcopy on the AIV cores.
#include "kernel_operator.h"
#include "vcopy_kernel_base.h"

class KernelCopy {
public:
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, GM_ADDR profilingData, GM_ADDR tiling)
    {
        (void)profilingData;  // the runtime records through MOE_TRACING_KERNEL_BEGIN in the entry
        src_ = reinterpret_cast<__gm__ float *>(src);
        dst_ = reinterpret_cast<__gm__ float *>(dst);
        n_ = *reinterpret_cast<__gm__ int64_t *>(tiling);
    }

    __aicore__ inline void Process()
    {
        if (ASCEND_IS_AIC)
            return;
        for (int64_t i = AscendC::GetBlockIdx(); i < n_; i += AscendC::GetBlockNum() * 2)
            dst_[i] = src_[i];
    }

private:
    __gm__ float *src_ = nullptr, *dst_ = nullptr;
    int64_t n_ = 0;
};

extern "C" __global__ __aicore__ void vcopy_kernel(GM_ADDR src, GM_ADDR dst, GM_ADDR profilingData, GM_ADDR tiling)
{
    MOE_TRACING_KERNEL_BEGIN(profilingData);
    KernelCopy op;
    op.Init(src, dst, profilingData, tiling);
    op.Process();
    MoeTracingKernelEnd();
}
