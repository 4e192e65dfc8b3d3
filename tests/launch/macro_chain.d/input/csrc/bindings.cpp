// vcopy's registration: a lambda that calls the host function for its effect.
#include <torch/library.h>

namespace demo {
void vcopy(const at::Tensor &src, at::Tensor &dst);
} // namespace demo

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("vcopy(Tensor src, Tensor(a!) dst) -> ()");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("vcopy", [](const at::Tensor &src, at::Tensor &dst) { demo::vcopy(src, dst); });
}
