// ATen/ATen.h (a test stub) - the few at::Tensor operations the direct-launch cases of
// tests/launch.test use, over host memory: enough to compile a wired host function with g++
// and run it against the host simulation (device/sim), never a model of ATen.
#ifndef AUTOTRACE_TEST_ATEN_STUB_H
#define AUTOTRACE_TEST_ATEN_STUB_H

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <tuple>
#include <vector>

namespace c10 {
enum class ScalarType { Float, Long, Byte };
} // namespace c10

namespace at {
using ScalarType = c10::ScalarType;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kByte = ScalarType::Byte;

inline size_t element_size(ScalarType t)
{
    return t == kLong ? 8 : t == kByte ? 1 : 4;
}

struct TensorOptions {
    ScalarType type = kFloat;
    TensorOptions dtype(ScalarType t) const
    {
        TensorOptions o = *this;
        o.type = t;
        return o;
    }
};

class Tensor {
public:
    Tensor() = default;
    Tensor(int64_t numel, ScalarType t) : buf_(std::make_shared<std::vector<unsigned char>>(numel * element_size(t))),
                                          numel_(numel), type_(t) {}
    TensorOptions options() const { return TensorOptions{type_}; }
    int64_t numel() const { return numel_; }
    ScalarType scalar_type() const { return type_; }
    void *data_ptr() const { return buf_ ? buf_->data() : nullptr; }
    template <typename T>
    T *data_ptr() const { return static_cast<T *>(data_ptr()); }
    Tensor contiguous() const { return *this; }

private:
    std::shared_ptr<std::vector<unsigned char>> buf_;
    int64_t numel_ = 0;
    ScalarType type_ = kFloat;
};

inline Tensor zeros(std::initializer_list<int64_t> sizes, TensorOptions o)
{
    int64_t n = 1;
    for (int64_t s : sizes)
        n *= s;
    return Tensor(n, o.type); // the storage is value-initialised: zeros
}

inline Tensor empty(std::initializer_list<int64_t> sizes, TensorOptions o)
{
    return zeros(sizes, o);
}
} // namespace at

#endif
