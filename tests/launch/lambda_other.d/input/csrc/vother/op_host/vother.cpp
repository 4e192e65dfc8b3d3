// vother: a direct launch registered through a lambda that returns another value.
#include <ATen/ATen.h>

#include "acl/acl.h"

namespace demo {
void vother(const at::Tensor &src, at::Tensor &dst)
{
    at::Tensor tiling = at::zeros({1}, src.options().dtype(at::kLong));
    ACLRT_LAUNCH_KERNEL(vother_kernel)(2, nullptr, src, dst, tiling);
}
} // namespace demo
