// kernel_stub.h (tests/launch.test) - the device side of launch_stub.h: AUTOTRACE_KERNEL_STUB(k)
// defines autotrace_kernel_k(blockDim, args, n), which runs the kernel k of this translation
// unit on the host simulation (sim_launch, a 1C2V launch) with its n arguments, or returns -2
// when n is not the number of the kernel's parameters: a launch that passes one argument too
// many or too few fails the run instead of reading past it.
#ifndef AUTOTRACE_TEST_KERNEL_STUB_H
#define AUTOTRACE_TEST_KERNEL_STUB_H

#include <cstddef>
#include <cstdint>
#include <utility>

#include "sim_runtime.h"

namespace kernel_stub {
template <typename... P, size_t... I>
int call(void (*k)(P...), uint32_t blockDim, void **a, std::index_sequence<I...>)
{
    return sim_launch(k, blockDim, (P)(uintptr_t)a[I]...);
}

template <typename... P>
int launch(void (*k)(P...), uint32_t blockDim, void **a, size_t n)
{
    if (n != sizeof...(P))
        return -2;
    return call(k, blockDim, a, std::index_sequence_for<P...>{});
}
} // namespace kernel_stub

#define AUTOTRACE_KERNEL_STUB(kernel)                                                   \
    extern "C" int autotrace_kernel_##kernel(uint32_t blockDim, void **args, size_t n)   \
    {                                                                                   \
        return kernel_stub::launch(kernel, blockDim, args, n);                          \
    }

#endif
