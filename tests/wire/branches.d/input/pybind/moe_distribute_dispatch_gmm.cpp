// torch binding of MoeDistributeDispatchGmm (torch_npu) with one path per weight dtype, each
// running aclnnMoeDistributeDispatchGmm, and a meta function for the shapes.
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

std::tuple<at::Tensor, at::Tensor> moe_distribute_dispatch_gmm(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale)
{
    at::Tensor y = at::empty_like(x);
    at::Tensor expert_token_nums = at::zeros({weight1.size(0)}, x.options().dtype(at::kLong));
    bool is_int8 = weight1.scalar_type() == at::kChar;
    if (is_int8) {
        at::Tensor w1 = weight1.to(at::kFloat);
        EXEC_NPU_CMD(aclnnMoeDistributeDispatchGmm, x, expert_ids, w1, weight2, scale, y,
                     expert_token_nums);
    } else {
        EXEC_NPU_CMD(aclnnMoeDistributeDispatchGmm, x, expert_ids, weight1, weight2, scale, y,
                     expert_token_nums);
    }
    return std::make_tuple(y, expert_token_nums);
}

std::tuple<at::Tensor, at::Tensor> moe_distribute_dispatch_gmm_meta(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale)
{
    return std::make_tuple(at::empty_like(x), at::empty({weight1.size(0)}, x.options().dtype(at::kLong)));
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

TORCH_LIBRARY_IMPL(npu, Meta, m)
{
    m.impl("moe_distribute_dispatch_gmm", &moe_distribute_dispatch_gmm_meta);
}
