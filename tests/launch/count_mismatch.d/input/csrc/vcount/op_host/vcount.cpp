// vcount: the launch forgets the tiling the kernel takes.
#include <ATen/ATen.h>

#include "acl/acl.h"

namespace demo {
void vcount(const at::Tensor &src, at::Tensor &dst)
{
    ACLRT_LAUNCH_KERNEL(vcount_kernel)(2, nullptr, src, dst);
}
} // namespace demo
