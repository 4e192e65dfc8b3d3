// torch binding of MoeDistributeDispatchGmm (torch_npu) through an autograd Function: its
// forward() allocates the outputs and runs aclnnMoeDistributeDispatchGmm; the binding returns
// what apply() gives, value by value.
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

using torch::autograd::AutogradContext;
using torch::autograd::tensor_list;

namespace {
constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128;  // as in the infer
constexpr int64_t MIX_AIC_1_2_SLOTS_PER_GROUP = 3;  // 1 AIC + 2 AIV per group
constexpr int64_t PROF_SIZE_PER_CORE = 2048;
} // namespace

class MoeDistributeDispatchGmmFunction : public torch::autograd::Function<MoeDistributeDispatchGmmFunction> {
public:
    static tensor_list forward(AutogradContext *ctx, const at::Tensor &x, const at::Tensor &expert_ids,
                               const at::Tensor &weight1, const at::Tensor &weight2, const at::Tensor &scale)
    {
        at::Tensor profiling_data = at::zeros(
            {MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE},
            x.options().dtype(at::kLong));
        TORCH_CHECK(x.dim() == 2, "x must be (tokens, hidden)");
        at::Tensor y = at::empty_like(x);
        at::Tensor expert_token_nums = at::zeros({weight1.size(0)}, x.options().dtype(at::kLong));
        EXEC_NPU_CMD(aclnnMoeDistributeDispatchGmm, x, expert_ids, weight1, weight2, scale, y,
                     expert_token_nums,
                     profiling_data);
        ctx->save_for_backward({x, weight1});
        ctx->mark_non_differentiable({expert_token_nums, profiling_data});
        return {y, expert_token_nums, profiling_data};
    }

    static tensor_list backward(AutogradContext *ctx, tensor_list grad_outputs)
    {
        TORCH_CHECK(grad_outputs.size() == 3, "one gradient per output");
        auto saved = ctx->get_saved_variables();
        return {grad_outputs[0], at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
    }
};

std::tuple<at::Tensor, at::Tensor, at::Tensor> moe_distribute_dispatch_gmm(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale)
{
    auto outs = MoeDistributeDispatchGmmFunction::apply(x, expert_ids, weight1, weight2, scale);
    return std::make_tuple(outs[0], outs[1], outs[2]);
}

TORCH_LIBRARY_FRAGMENT(npu, m)
{
    m.def("moe_distribute_dispatch_gmm(Tensor x, Tensor expert_ids, Tensor weight1, Tensor weight2, "
          "Tensor scale) -> (Tensor, Tensor, Tensor)");
}

TORCH_LIBRARY_IMPL(npu, PrivateUse1, m)
{
    m.impl("moe_distribute_dispatch_gmm", &moe_distribute_dispatch_gmm);
}
