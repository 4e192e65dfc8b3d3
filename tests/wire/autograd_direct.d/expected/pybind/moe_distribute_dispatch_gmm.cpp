// torch binding of MoeDistributeDispatchGmm (torch_npu) through an autograd Function whose
// forward() returns a braced std::tuple; the binding returns apply() directly.
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

namespace {
constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128;  // as in the infer
constexpr int64_t MIX_AIC_1_2_SLOTS_PER_GROUP = 3;  // 1 AIC + 2 AIV per group
constexpr int64_t PROF_SIZE_PER_CORE = 2048;
} // namespace

class MoeDistributeDispatchGmmFunction final
    : public torch::autograd::Function<MoeDistributeDispatchGmmFunction> {
public:
    static std::tuple<at::Tensor, at::Tensor, at::Tensor> forward(torch::autograd::AutogradContext *context,
                                                      const at::Tensor &x, const at::Tensor &expert_ids,
                                                      const at::Tensor &weight1, const at::Tensor &weight2,
                                                      const at::Tensor &scale)
    {
        at::Tensor profiling_data = at::zeros(
            {MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE},
            x.options().dtype(at::kLong));
        context->mark_non_differentiable({profiling_data});  // autotrace wire: profiling records have no gradient
        at::Tensor y = at::empty_like(x);
        at::Tensor expert_token_nums = at::zeros({weight1.size(0)}, x.options().dtype(at::kLong));
        EXEC_NPU_CMD(aclnnMoeDistributeDispatchGmm, x, expert_ids, weight1, weight2, scale, y,
                     expert_token_nums,
                     profiling_data);
        return {y, expert_token_nums, profiling_data};
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext *context,
                                                 torch::autograd::tensor_list grad_outputs)
    {
        TORCH_CHECK(grad_outputs.size() != 0, "gradients expected");
        return {grad_outputs[0], at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
    }
};

std::tuple<at::Tensor, at::Tensor, at::Tensor> moe_distribute_dispatch_gmm(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale)
{
    return MoeDistributeDispatchGmmFunction::apply(x, expert_ids, weight1, weight2, scale);
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
