// The autograd Function of MoeDistributeDispatchGmm: forward() runs the operator and returns
// (y, expert_token_nums) as a std::tuple; no gradient flows back to the inputs.
#pragma once

#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

namespace moe {
struct MoeDistributeDispatchGmmFunction : public torch::autograd::Function<MoeDistributeDispatchGmmFunction> {
    static std::tuple<at::Tensor, at::Tensor> forward(torch::autograd::AutogradContext *ctx, const at::Tensor &x,
                                                      const at::Tensor &expert_ids, const at::Tensor &weight1,
                                                      const at::Tensor &weight2, const at::Tensor &scale)
    {
        at::Tensor y = at::empty_like(x);
        at::Tensor expert_token_nums = at::zeros({weight1.size(0)}, x.options().dtype(at::kLong));
        EXEC_NPU_CMD(aclnnMoeDistributeDispatchGmm, x, expert_ids, weight1, weight2, scale, y, expert_token_nums);
        return std::make_tuple(y, expert_token_nums);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                   torch::autograd::variable_list grads)
    {
        (void)ctx;
        (void)grads;
        return {at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
    }
};
} // namespace moe
