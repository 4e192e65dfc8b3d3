#pragma once
#include "../block/block_mmad_dequant.h"
namespace Catlass::Gemm::Kernel {
template <bool IsQuant>
class GroupedMatmulDequant {
public:
    struct Params {
        uint32_t groupCount;
    };

    template <int32_t CORE_TYPE = g_coreType>
    CATLASS_DEVICE void operator()(Params const &params);

    template <>
    CATLASS_DEVICE
    void operator()<AscendC::AIC>(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.groupCount; ++groupIdx) {
            blockMmad_(groupIdx);
            Arch::CrossCoreSetFlag<0x2, PIPE_FIX>(flagAicFinish_);
        }
    }

    template <>
    CATLASS_DEVICE
    void operator()<AscendC::AIV>(Params const &params)
    {
        for (uint32_t groupIdx = 0; groupIdx < params.groupCount; ++groupIdx) {
            Arch::CrossCoreWaitFlag(flagAicFinish_);
            if constexpr (IsQuant) {
                Dequant(groupIdx);
            }
        }
    }

private:
    Block::BlockMmadDequant blockMmad_;
};
}
