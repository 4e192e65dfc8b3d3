// Test operator kernel class: the kernel type is chosen by
// `typename std::conditional<UseA, KernelA, KernelB>::type`; the call of the
// object reaches both KernelA::operator() and KernelB::operator(), and not
// KernelC's.
#pragma once
#include <type_traits>
#include "kernels.h"

template <bool UseA>
class Op {
public:
    __aicore__ inline void Process()
    {
        using GemmKernel = typename std::conditional<UseA, KernelA, KernelB>::type;
        GemmParams params{groups_};
        GemmKernel gemm;
        gemm(params);
    }

private:
    uint32_t groups_ = 4;
};
