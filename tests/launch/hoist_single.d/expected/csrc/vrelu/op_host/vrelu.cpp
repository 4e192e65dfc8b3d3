// vrelu_: x = max(x, 0) in place, returned by reference. EXEC_KERNEL_CMD comes from the
// torch_npu helper header, which is not part of this project.
#include <cstdint>

#include "torch_helper.h"
#include "aclrtlaunch_vrelu_kernel.h"

namespace demo {
namespace {
constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128;  // as in the infer
constexpr int64_t MIX_AIC_1_2_SLOTS_PER_GROUP = 3;  // 1 AIC + 2 AIV per group
constexpr int64_t PROF_SIZE_PER_CORE = 2048;
} // namespace

std::tuple<at::Tensor &, at::Tensor>vrelu_(at::Tensor &x)
{
    at::Tensor profiling_data = at::zeros(
        {MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE},
        x.options().dtype(at::kLong));
    at::Tensor tiling = at::zeros({1}, x.options().dtype(at::kLong));
    tiling.data_ptr<int64_t>()[0] = x.numel();
    EXEC_KERNEL_CMD(vrelu_kernel, 2, x, profiling_data, tiling);
    return std::forward_as_tuple(x, profiling_data);
}
} // namespace demo
