// vlone: a direct launch that no registration names.
#include <ATen/ATen.h>

#include "acl/acl.h"

namespace demo {
void vlone(const at::Tensor &src, at::Tensor &dst)
{
    at::Tensor tiling = at::zeros({1}, src.options().dtype(at::kLong));
    ACLRT_LAUNCH_KERNEL(vlone_kernel)(2, nullptr, src, dst, tiling);
}
} // namespace demo
