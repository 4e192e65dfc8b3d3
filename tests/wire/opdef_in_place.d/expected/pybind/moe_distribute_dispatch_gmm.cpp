// torch binding of MoeDistributeDispatchGmm, an in-place operator (torch_npu): the caller passes
// y and expert_token_nums, aclnnMoeDistributeDispatchGmm writes them; nothing is returned.
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

void moe_distribute_dispatch_gmm(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale, at::Tensor &y, at::Tensor &expert_token_nums, const c10::optional<at::Tensor> &profiling_data)
{
    TORCH_CHECK(x.dim() == 2, "x must be (tokens, hidden)");
    TORCH_CHECK(weight1.dim() == 3 && weight2.dim() == 3, "weights must be (experts, k, n)");
    EXEC_NPU_CMD(aclnnMoeDistributeDispatchGmm, x, expert_ids, weight1, weight2, scale, y,
                 expert_token_nums,
                 profiling_data);
}

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("moe_distribute_dispatch_gmm(Tensor x, Tensor expert_ids, Tensor weight1, Tensor weight2, "
          "Tensor scale, Tensor(a!) y, Tensor(b!) expert_token_nums, Tensor? profiling_data=None) -> ()");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("moe_distribute_dispatch_gmm", &moe_distribute_dispatch_gmm);
}
