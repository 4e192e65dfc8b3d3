// Test operator: the block loop calls a helper that calls the epilogue.
#pragma once
#include "op_base.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Prepare();
        for (uint32_t blockIdx = 0; blockIdx < blocks_; blockIdx++) {
            ComputeBlock(blockIdx);
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Prepare()
    {
        MoeTracing(TRACE_POINT("prepare", "B")); // autotrace
        acc_ = blocks_;
        MoeTracing(TRACE_POINT("prepare", "E")); // autotrace
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
