// The registrations; the host functions are declared in the package's npu_ops.h, which is
// generated elsewhere.
#include <torch/library.h>

#include "npu_ops.h"

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("vrelu_(Tensor(a!) x) -> (Tensor(a!), Tensor)");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("vrelu_", TORCH_FN(demo::vrelu_));
}
