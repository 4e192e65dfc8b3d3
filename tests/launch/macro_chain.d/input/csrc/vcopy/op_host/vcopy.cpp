// vcopy: dst = src, nothing done for an empty tensor.
#include <cstdint>

#include <ATen/ATen.h>

#include "aclrtlaunch_vcopy_kernel.h"
#include "launch.h"

namespace demo {
void vcopy(const at::Tensor &src, at::Tensor &dst)
{
    if (src.numel() == 0)
        return;
    at::Tensor tiling = at::zeros({1}, src.options().dtype(at::kLong));
    tiling.data_ptr<int64_t>()[0] = src.numel();
    RUN_KERNEL(vcopy_kernel, 2, src, dst, tiling);
}
} // namespace demo
