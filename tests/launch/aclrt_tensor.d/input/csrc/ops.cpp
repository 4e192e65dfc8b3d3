// The torch registrations: the device function and its Meta twin.
#include <torch/library.h>

#include "vscale.h"

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("vscale(Tensor x) -> Tensor");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("vscale", &demo::vscale);
}

TORCH_LIBRARY_IMPL(npu, Meta, m)
{
    m.impl("vscale", &demo::vscale_meta);
}
