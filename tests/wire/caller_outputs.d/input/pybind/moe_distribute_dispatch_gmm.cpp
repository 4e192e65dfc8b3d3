// torch binding of MoeDistributeDispatchGmm (torch_npu) in the out-argument style: the caller
// allocates y and expert_token_nums (Tensor! in the schema) and gets them back; an optional mask
// sits after them, an attribute with a default last. A meta function mirrors it.
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

std::tuple<at::Tensor &, at::Tensor &> moe_distribute_dispatch_gmm(
    const at::Tensor &x,
    const at::Tensor &expert_ids,
    const at::Tensor &weight1,
    const at::Tensor &weight2,
    const at::Tensor &scale,
    at::Tensor &y,
    at::Tensor &expert_token_nums,
    const c10::optional<at::Tensor> &mask,
    double limit)
{
    (void)limit;
    EXEC_NPU_CMD(aclnnMoeDistributeDispatchGmm, x, expert_ids, weight1, weight2, scale, y,
                 expert_token_nums);
    return {y, expert_token_nums};
}

std::tuple<at::Tensor &, at::Tensor &> moe_distribute_dispatch_gmm_meta(
    const at::Tensor &x,
    const at::Tensor &expert_ids,
    const at::Tensor &weight1,
    const at::Tensor &weight2,
    const at::Tensor &scale,
    at::Tensor &y,
    at::Tensor &expert_token_nums,
    const c10::optional<at::Tensor> &mask,
    double limit)
{
    return {y, expert_token_nums};
}

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("moe_distribute_dispatch_gmm(Tensor x, Tensor expert_ids, Tensor weight1, Tensor weight2, "
          "Tensor scale, Tensor! y, Tensor! expert_token_nums, Tensor? mask=None, float limit=1.0) "
          "-> (Tensor y, Tensor expert_token_nums)");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("moe_distribute_dispatch_gmm", &moe_distribute_dispatch_gmm);
}

TORCH_LIBRARY_IMPL(npu, Meta, m)
{
    m.impl("moe_distribute_dispatch_gmm", &moe_distribute_dispatch_gmm_meta);
}
