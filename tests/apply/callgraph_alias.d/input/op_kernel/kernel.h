// Test kernel: a class template whose operator() has one specialisation per
// core type, reached through `using MatmulKernel = Kernel<BlockA, 4>;` and a
// call of the object (`kernel(params);`, no template arguments): both
// specialisations are reached.
#pragma once
#include "op_base.h"

struct BlockA {
    __aicore__ inline void Mmad(uint32_t groupIdx) { acc_ += groupIdx; }
    uint32_t acc_ = 0;
};

template <class BlockMmad_, uint32_t Stages>
class Kernel {
public:
    struct Params {
        uint32_t groups;
    };

    __aicore__ inline Kernel(const Params &params) : groups_(params.groups) {}

    // On the device g_coreType is a constant of each compile pass; the host
    // simulation compiles both passes as one, so the default names a type.
    template <int32_t CORE_TYPE = AscendC::AIC>
    __aicore__ inline void operator()(const Params &params);

    BlockMmad_ block_;
    uint32_t groups_;
};

template <>
template <>
__aicore__ inline void Kernel<BlockA, 4>::operator()<AscendC::AIC>(const Params &params)
{
    for (uint32_t g = 0; g < params.groups; g++) {
        block_.Mmad(g);
    }
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(1);
}

template <>
template <>
__aicore__ inline void Kernel<BlockA, 4>::operator()<AscendC::AIV>(const Params &params)
{
    AscendC::CrossCoreWaitFlag(1);
    groups_ = params.groups;
}

// Another kernel of the same shape that the operator does not use: no point.
class SpareKernel {
public:
    template <int32_t CORE_TYPE>
    __aicore__ inline void operator()(uint32_t n);
};

template <>
__aicore__ inline void SpareKernel::operator()<AscendC::AIC>(uint32_t n)
{
    AscendC::CrossCoreWaitFlag(n);
}
