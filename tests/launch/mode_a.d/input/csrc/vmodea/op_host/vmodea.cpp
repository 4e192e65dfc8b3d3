// vmodea: a direct launch whose rules ask for mode A.
#include <ATen/ATen.h>

#include "acl/acl.h"

namespace demo {
void vmodea(const at::Tensor &src, at::Tensor &dst)
{
    at::Tensor tiling = at::zeros({1}, src.options().dtype(at::kLong));
    ACLRT_LAUNCH_KERNEL(vmodea_kernel)(2, nullptr, src, dst, tiling);
}
} // namespace demo
