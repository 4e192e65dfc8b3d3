// Test operator: the block loop calls a helper that calls the epilogue; the
// rules' wrap and region reach both, though they are tile-level code.
#pragma once
#include "op_base.h"

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t blockIdx = 0; blockIdx < blocks_; blockIdx++) {
            ComputeBlock(blockIdx);
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void ComputeBlock(uint32_t blockIdx)
    {
        MoeTracing(TRACE_POINT("processing accumulate", "B")); // autotrace
        acc_ += blockIdx;
        acc_ -= 1;
        MoeTracing(TRACE_POINT("processing accumulate", "E")); // autotrace
        Epilogue(blockIdx);
    }

    __aicore__ inline void Epilogue(uint32_t blockIdx)
    {
        MoeTracing(TRACE_POINT("processing block-wait", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing block-wait", "E")); // autotrace
        acc_ *= blockIdx;
    }

    uint32_t blocks_ = 4;
    uint32_t acc_ = 0;
};
