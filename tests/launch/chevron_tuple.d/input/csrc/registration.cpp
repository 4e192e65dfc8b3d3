// The torch registration of vsplit, through a lambda with its return type written out.
#include <tuple>

#include <torch/library.h>

namespace demo {
std::tuple<at::Tensor, at::Tensor> vsplit(const at::Tensor &x);
} // namespace demo

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("vsplit(Tensor x) -> (Tensor, Tensor)");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("vsplit", [](const at::Tensor &x) -> std::tuple<at::Tensor, at::Tensor> { return demo::vsplit(x); });
}
