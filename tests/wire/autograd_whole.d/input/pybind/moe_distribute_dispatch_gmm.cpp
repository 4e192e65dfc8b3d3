// torch binding of MoeDistributeDispatchGmm (torch_npu): returns what its autograd Function
// (autograd/moe_distribute_dispatch_gmm_function.h) returns, as it is.
#include <torch/extension.h>
#include "autograd/moe_distribute_dispatch_gmm_function.h"

std::tuple<at::Tensor, at::Tensor> moe_distribute_dispatch_gmm(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale)
{
    TORCH_CHECK(x.dim() == 2, "x must be (tokens, hidden)");
    auto result = moe::MoeDistributeDispatchGmmFunction::apply(x, expert_ids, weight1, weight2, scale);
    return result;
}

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("moe_distribute_dispatch_gmm(Tensor x, Tensor expert_ids, Tensor weight1, Tensor weight2, "
          "Tensor scale) -> (Tensor, Tensor)");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("moe_distribute_dispatch_gmm", &moe_distribute_dispatch_gmm);
}
