// vsplit: the low and high halves of every element (x - floor(x), floor(x)), on a kernel the
// host launches with the <<<blockDim, l2ctrl, stream>>> syntax of the CANN compiler.
#include <cstdint>
#include <tuple>

#include <ATen/ATen.h>

namespace demo {
namespace {
constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128;  // as in the infer
constexpr int64_t MIX_AIC_1_2_SLOTS_PER_GROUP = 3;  // 1 AIC + 2 AIV per group
constexpr int64_t PROF_SIZE_PER_CORE = 2048;
} // namespace

std::tuple<at::Tensor, at::Tensor, at::Tensor> vsplit(const at::Tensor &x)
{
    at::Tensor profiling_data = at::zeros(
        {MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE},
        x.options().dtype(at::kLong));
    at::Tensor lo = at::zeros({x.numel()}, x.options());
    at::Tensor hi = at::zeros({x.numel()}, x.options());
    at::Tensor tiling = at::zeros({1}, x.options().dtype(at::kLong));
    tiling.data_ptr<int64_t>()[0] = x.numel();
    uint32_t blockDim = 3;
    void *stream = nullptr;
    vsplit_kernel<<<blockDim, nullptr, stream>>>(static_cast<uint8_t *>(x.data_ptr()),
                                                 static_cast<uint8_t *>(lo.data_ptr()),
                                                 static_cast<uint8_t *>(hi.data_ptr()),
                                                 static_cast<uint8_t *>(profiling_data.data_ptr()),
                                                 static_cast<uint8_t *>(tiling.data_ptr()));
    return std::make_tuple(lo, hi, profiling_data);
}
} // namespace demo
