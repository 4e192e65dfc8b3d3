// The registration of vother: the lambda returns the destination, not what vother() returns.
#include <torch/library.h>

namespace demo {
void vother(const at::Tensor &src, at::Tensor &dst);
} // namespace demo

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("vother(Tensor src, Tensor(a!) dst) -> Tensor");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("vother", [](const at::Tensor &src, at::Tensor &dst) {
        demo::vother(src, dst);
        return dst;
    });
}
