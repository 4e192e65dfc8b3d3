// vadd: z = x + y, launched directly on the vector cores.
#include <cstdint>

#include "torch_helper.h"
#include "aclrtlaunch_vadd.h"

namespace demo {
namespace npu_kernel {

HOST_API void vadd(const at::Tensor &x, const at::Tensor &y, at::Tensor &z)
{
    uint32_t blockDim = 4;
    at::Tensor tiling = at::zeros({1}, x.options().dtype(at::kLong));
    tiling.data_ptr<int64_t>()[0] = x.numel();
    EXEC_KERNEL_CMD(vadd, blockDim, x, y, z, tiling);
}

} // namespace npu_kernel
} // namespace demo
