#pragma once
#include "../block/block_mmad.h"
namespace Catlass::Gemm::Kernel {
template <class BlockMmad>
struct GroupedMatmul {
    CATLASS_DEVICE void operator()(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.groupCount; ++groupIdx) {
            blockMmad(params.a[groupIdx]);
        }
    }
};
}
