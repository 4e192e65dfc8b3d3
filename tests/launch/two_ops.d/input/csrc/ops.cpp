// The operators' torch registrations: two launched operators of one directory,
// one returning a new tensor, one filling its last argument.
#include "torch_helper.h"
#include "../include/ops.h"

namespace {
TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("expand(Tensor x, Tensor w) -> Tensor");
    m.def("shrink(Tensor x, Tensor w, Tensor(a!) y) -> ()");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("expand", TORCH_FN(demo::npu_kernel::expand));
    m.impl("shrink", TORCH_FN(demo::npu_kernel::shrink));
}
} // namespace
