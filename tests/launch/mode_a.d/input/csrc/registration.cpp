// The registration of vmodea.
#include <torch/library.h>

namespace demo {
void vmodea(const at::Tensor &src, at::Tensor &dst);
} // namespace demo

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("vmodea(Tensor src, Tensor(a!) dst) -> ()");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("vmodea", TORCH_FN(demo::vmodea));
}
