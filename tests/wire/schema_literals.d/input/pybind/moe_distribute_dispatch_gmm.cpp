// torch binding of MoeDistributeDispatchGmm (torch_npu) whose schema's returns are written in
// literals of their own after the arrow's: one string to the compiler, one more Tensor for wire.
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

std::tuple<at::Tensor, at::Tensor> moe_distribute_dispatch_gmm(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale)
{
    TORCH_CHECK(x.dim() == 2, "x must be (tokens, hidden)");
    TORCH_CHECK(weight1.dim() == 3 && weight2.dim() == 3, "weights must be (experts, k, n)");
    at::Tensor y = at::empty_like(x);
    at::Tensor expert_token_nums = at::zeros({weight1.size(0)}, x.options().dtype(at::kLong));
    EXEC_NPU_CMD(aclnnMoeDistributeDispatchGmm, x, expert_ids, weight1, weight2, scale, y,
                 expert_token_nums);
    return std::make_tuple(y, expert_token_nums);
}

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("moe_distribute_dispatch_gmm(Tensor x, Tensor expert_ids, Tensor weight1, Tensor weight2, "
          "Tensor scale) -> "
          "(Tensor y, "
          "Tensor expert_token_nums)");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("moe_distribute_dispatch_gmm", &moe_distribute_dispatch_gmm);
}
