#pragma once
namespace Catlass::Gemm::Kernel {

template <class BlockMmad_, class BlockEpilogue_, class BlockScheduler_>
class GroupedMatmulSliceMSwiglu {
public:
    using BlockMmad = BlockMmad_;
    struct Params {
        GemmCoord problemShape;
        uint32_t groupCount;
        GM_ADDR ptrGroupList;
    };

    CATLASS_DEVICE
    GroupedMatmulSliceMSwiglu() {}

    template <int32_t CORE_TYPE = g_coreType>
    CATLASS_DEVICE
    void operator()(Params const &params);

    template <>
    CATLASS_DEVICE
    void operator()<AscendC::AIC>(Params const &params)
    {
        BlockScheduler blockScheduler;
        BlockMmad blockMmad(resource);
        for (uint32_t groupIdx = 0; groupIdx < params.groupCount; ++groupIdx) {
            uint32_t currentM = groupList.GetValue(groupIdx);
            blockScheduler.Update(currentM, groupIdx);
            for (uint32_t loopIdx = AscendC::GetBlockIdx(); loopIdx < coreLoops; loopIdx += AscendC::GetBlockNum()) {
                blockMmad(gmA[offsetA], gmB[offsetB], gmC[offsetC], actualBlockShape);
            }
            Arch::CrossCoreSetFlag<0x2, PIPE_FIX>(flagAicFinishStore);
        }
    }

    template <>
    CATLASS_DEVICE
    void operator()<AscendC::AIV>(Params const &params)
    {
        BlockEpilogue blockEpilogue(resource, params.epilogueParams);
        for (uint32_t groupIdx = 0; groupIdx < params.groupCount; ++groupIdx) {
            Arch::CrossCoreWaitFlag(flagAicFinishStore);
            blockEpilogue(groupIdx);
        }
    }
};

} // namespace Catlass::Gemm::Kernel
