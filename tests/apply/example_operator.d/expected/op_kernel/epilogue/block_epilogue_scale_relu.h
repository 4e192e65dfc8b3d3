// BlockEpilogueScaleRelu: the vector epilogue between the two grouped matmuls of an expert group,
// act = relu(gmm1 * scale[group]), row by row; the two AIV cores of a group take alternate rows.
#ifndef EPILOGUE_BLOCK_EPILOGUE_SCALE_RELU_H
#define EPILOGUE_BLOCK_EPILOGUE_SCALE_RELU_H

#include "../moe_distribute_dispatch_gmm_base.h"

class BlockEpilogueScaleRelu {
public:
    CATLASS_DEVICE BlockEpilogueScaleRelu() {}

    CATLASS_DEVICE void Init(AscendC::TPipe *pipe, uint32_t cols)
    {
        cols_ = cols;
        pipe->InitBuffer(ubIn_, cols * sizeof(float));
        pipe->InitBuffer(ubOut_, cols * sizeof(float));
    }

    CATLASS_DEVICE void operator()(const AscendC::GlobalTensor<float> &gmm1,
                                   const AscendC::GlobalTensor<float> &act, uint32_t rows,
                                   float scale, uint32_t rowBegin, uint32_t rowStep)
    {
        AscendC::LocalTensor<float> in = ubIn_.Get<float>();
        AscendC::LocalTensor<float> out = ubOut_.Get<float>();
        for (uint32_t tileIdx = rowBegin; tileIdx < rows; tileIdx += rowStep) {
            AscendC::DataCopy(in, gmm1[(uint64_t)tileIdx * cols_], cols_);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(AscendC::EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(AscendC::EVENT_ID0);
            AscendC::Muls(out, in, scale, cols_);
            AscendC::Relu(out, out, cols_);
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(AscendC::EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(AscendC::EVENT_ID0);
            AscendC::DataCopy(act[(uint64_t)tileIdx * cols_], out, cols_);
        }
    }

private:
    AscendC::TBuf<AscendC::TPosition::VECIN> ubIn_;
    AscendC::TBuf<AscendC::TPosition::VECOUT> ubOut_;
    uint32_t cols_ = 0;
};

#endif
