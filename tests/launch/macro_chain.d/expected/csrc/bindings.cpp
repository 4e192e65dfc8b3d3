// vcopy's registration: a lambda that calls the host function for its effect.
#include <torch/library.h>

namespace demo {
at::Tensor vcopy(const at::Tensor &src, at::Tensor &dst);
} // namespace demo

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("vcopy(Tensor src, Tensor(a!) dst) -> Tensor");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("vcopy", [](const at::Tensor &src, at::Tensor &dst) { return demo::vcopy(src, dst); });
}
