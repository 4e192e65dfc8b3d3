// torch binding of MoeDistributeDispatchGmm (torch_npu) whose tuple of outputs is made by a
// helper, and a meta function that returns a tuple it names.
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

static std::tuple<at::Tensor, at::Tensor> make_outputs(const at::Tensor &y, const at::Tensor &counts)
{
    return std::make_tuple(y, counts);
}

namespace {
constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128;  // as in the infer
constexpr int64_t MIX_AIC_1_2_SLOTS_PER_GROUP = 3;  // 1 AIC + 2 AIV per group
constexpr int64_t PROF_SIZE_PER_CORE = 2048;
} // namespace

std::tuple<at::Tensor, at::Tensor, at::Tensor> moe_distribute_dispatch_gmm(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale)
{
    at::Tensor profiling_data = at::zeros(
        {MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE},
        x.options().dtype(at::kLong));
    at::Tensor y = at::empty_like(x);
    at::Tensor expert_token_nums = at::zeros({weight1.size(0)}, x.options().dtype(at::kLong));
    EXEC_NPU_CMD(aclnnMoeDistributeDispatchGmm, x, expert_ids, weight1, weight2, scale, y,
                 expert_token_nums,
                 profiling_data);
    return std::tuple_cat(make_outputs(y, expert_token_nums), std::make_tuple(profiling_data));
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> moe_distribute_dispatch_gmm_meta(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale)
{
    at::Tensor profiling_data = at::empty(
        {MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE},
        x.options().dtype(at::kLong));
    std::tuple<at::Tensor, at::Tensor> outs(at::empty_like(x), at::empty({weight1.size(0)}, x.options().dtype(at::kLong)));
    return std::tuple_cat(outs, std::make_tuple(profiling_data));
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

TORCH_LIBRARY_IMPL(npu, Meta, m)
{
    m.impl("moe_distribute_dispatch_gmm", &moe_distribute_dispatch_gmm_meta);
}
