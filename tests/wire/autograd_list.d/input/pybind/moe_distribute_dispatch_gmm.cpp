// torch binding of MoeDistributeDispatchGmm (torch_npu) through an autograd Function whose
// forward() builds a variable_list and returns it by name; the binding returns its values.
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

using namespace torch::autograd;

struct MoeDistributeDispatchGmmFunction : public Function<MoeDistributeDispatchGmmFunction> {
    static variable_list forward(AutogradContext *ctx, const at::Tensor &x, const at::Tensor &expert_ids,
                                 const at::Tensor &weight1, const at::Tensor &weight2, const at::Tensor &scale)
    {
        variable_list outputs;
        at::Tensor y = at::empty_like(x);
        at::Tensor expert_token_nums = at::zeros({weight1.size(0)}, x.options().dtype(at::kLong));
        EXEC_NPU_CMD(aclnnMoeDistributeDispatchGmm, x, expert_ids, weight1, weight2, scale, y, expert_token_nums);
        outputs.push_back(y);
        outputs.push_back(expert_token_nums);
        return outputs;
    }

    static variable_list backward(AutogradContext *ctx, variable_list grads)
    {
        TORCH_CHECK(2 == grads.size(), "a gradient per output");
        return {grads[0], Variable(), Variable(), Variable(), Variable()};
    }
};

std::tuple<at::Tensor, at::Tensor> moe_distribute_dispatch_gmm(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale)
{
    auto outs = MoeDistributeDispatchGmmFunction::apply(x, expert_ids, weight1, weight2, scale);
    return {outs[0], outs[1]};
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
