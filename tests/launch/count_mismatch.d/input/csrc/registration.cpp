// The registration of vcount.
#include <torch/library.h>

namespace demo {
void vcount(const at::Tensor &src, at::Tensor &dst);
} // namespace demo

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("vcount(Tensor src, Tensor(a!) dst) -> ()");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("vcount", TORCH_FN(demo::vcount));
}
