// Test operator: the block loop calls a helper that calls the epilogue.
#pragma once
#include "op_base.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        Prepare();
        for (uint32_t blockIdx = 0; blockIdx < blocks_; blockIdx++) {
            ComputeBlock(blockIdx);
        }
    }

private:
    __aicore__ inline void Prepare()
    {
        acc_ = blocks_;
    }

    __aicore__ inline void ComputeBlock(uint32_t blockIdx)
    {
        acc_ += blockIdx;
        Epilogue(blockIdx);
    }

    __aicore__ inline void Epilogue(uint32_t blockIdx)
    {
        AscendC::CrossCoreWaitFlag(1);
        acc_ *= blockIdx;
    }

    uint32_t blocks_ = 4;
    uint32_t acc_ = 0;
};
