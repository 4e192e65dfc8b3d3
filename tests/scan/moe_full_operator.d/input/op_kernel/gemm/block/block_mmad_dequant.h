#pragma once
namespace Catlass::Gemm::Block {
struct BlockMmadDequant {
    CATLASS_DEVICE void operator()(uint32_t groupIdx)
    {
        for (uint32_t kIdx = 0; kIdx < kLoops_; ++kIdx) {
            AscendC::Mmad(l0c_, l0a_[kIdx % 2], l0b_[kIdx % 2], mmadParams_);
        }
    }
    uint32_t kLoops_ = 8;
};
}
