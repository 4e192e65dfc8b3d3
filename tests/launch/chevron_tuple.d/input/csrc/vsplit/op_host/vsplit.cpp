// vsplit: the low and high halves of every element (x - floor(x), floor(x)), on a kernel the
// host launches with the <<<blockDim, l2ctrl, stream>>> syntax of the CANN compiler.
#include <cstdint>
#include <tuple>

#include <ATen/ATen.h>

namespace demo {
std::tuple<at::Tensor, at::Tensor> vsplit(const at::Tensor &x)
{
    at::Tensor lo = at::zeros({x.numel()}, x.options());
    at::Tensor hi = at::zeros({x.numel()}, x.options());
    at::Tensor tiling = at::zeros({1}, x.options().dtype(at::kLong));
    tiling.data_ptr<int64_t>()[0] = x.numel();
    uint32_t blockDim = 3;
    void *stream = nullptr;
    vsplit_kernel<<<blockDim, nullptr, stream>>>(static_cast<uint8_t *>(x.data_ptr()),
                                                 static_cast<uint8_t *>(lo.data_ptr()),
                                                 static_cast<uint8_t *>(hi.data_ptr()),
                                                 static_cast<uint8_t *>(tiling.data_ptr()));
    return std::make_tuple(lo, hi);
}
} // namespace demo
