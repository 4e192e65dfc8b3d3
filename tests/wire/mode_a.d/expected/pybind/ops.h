// declarations of the torch bindings (a header the binding includes): wire changes them with the definitions
#pragma once
#include <torch/extension.h>
std::tuple<at::Tensor, at::Tensor> moe_distribute_dispatch_gmm(
    const at::Tensor &x, const at::Tensor &expert_ids, const at::Tensor &weight1,
    const at::Tensor &weight2, const at::Tensor &scale, const c10::optional<at::Tensor> &profiling_data);
