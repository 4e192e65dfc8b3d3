// Test operator: the block loop calls a helper that calls the epilogue; the
// rules' wrap and region reach both, though they are tile-level code.
#pragma once
#include "op_base.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t blockIdx = 0; blockIdx < blocks_; blockIdx++) {
            ComputeBlock(blockIdx);
        }
    }

private:
    __aicore__ inline void ComputeBlock(uint32_t blockIdx)
    {
        acc_ += blockIdx;
        acc_ -= 1;
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
