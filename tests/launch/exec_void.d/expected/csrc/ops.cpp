// The operators' torch registrations.
#include "torch_helper.h"

namespace demo {
namespace npu_kernel {
HOST_API at::Tensor vadd(const at::Tensor &x, const at::Tensor &y, at::Tensor &z);
} // namespace npu_kernel
} // namespace demo

namespace {
TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("vadd(Tensor x, Tensor y, Tensor(a!) z) -> Tensor");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("vadd", TORCH_FN(demo::npu_kernel::vadd));
}
} // namespace
