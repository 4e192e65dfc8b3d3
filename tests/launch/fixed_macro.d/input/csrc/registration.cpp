// The registration of vfixed.
#include <torch/library.h>

namespace demo {
void vfixed(const at::Tensor &src, at::Tensor &dst);
} // namespace demo

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("vfixed(Tensor src, Tensor(a!) dst) -> ()");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("vfixed", TORCH_FN(demo::vfixed));
}
