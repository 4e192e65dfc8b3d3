// launch_stub.h (tests/launch.test) - the host side of a kernel launch on the host simulation:
// AUTOTRACE_LAUNCH_STUB(k) defines aclrtlaunch_k(blockDim, stream, args...), what
// ACLRT_LAUNCH_KERNEL(k) names (acl/acl.h), passing each tensor as its data pointer and every
// other value as is to autotrace_kernel_k, which kernel_stub.h defines beside the kernel (its
// own translation unit: the runtime's macros and the host's constants do not meet).
#ifndef AUTOTRACE_TEST_LAUNCH_STUB_H
#define AUTOTRACE_TEST_LAUNCH_STUB_H

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <ATen/ATen.h>

namespace launch_stub {
inline void *word(const at::Tensor &t) { return t.data_ptr(); }
template <typename T>
void *word(T v)
{
    if constexpr (std::is_pointer_v<T>)
        return (void *)v;
    else
        return reinterpret_cast<void *>(static_cast<uintptr_t>(v));
}
} // namespace launch_stub

#define AUTOTRACE_LAUNCH_STUB(kernel)                                                   \
    extern "C" int autotrace_kernel_##kernel(uint32_t blockDim, void **args, size_t n);  \
    template <typename... A>                                                            \
    int aclrtlaunch_##kernel(uint32_t blockDim, void *, A... args)                      \
    {                                                                                   \
        void *words[] = { launch_stub::word(args)..., nullptr };                        \
        return autotrace_kernel_##kernel(blockDim, words, sizeof...(A));                \
    }

#endif
