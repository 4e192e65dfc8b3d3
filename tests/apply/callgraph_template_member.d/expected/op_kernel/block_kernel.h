// Test kernel: a class template whose member is declared through an alias
// of its template parameter (`using Block = Block_; Block block_;`). Which
// Step() `block_.Step()` reaches is decided by the instantiation the
// operator writes (`using MyK = BlockKernel<MyBlock>;`): MyBlock::Step, and
// not SpareBlock::Step.
#pragma once
#include "op_base.h"

struct MyBlock {
    __aicore__ inline void Step(uint32_t groupIdx)
    {
        MoeTracing(TRACE_POINT("processing step", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        rows_ += groupIdx;
        MoeTracing(TRACE_POINT("processing step", "E")); // autotrace
    }
    uint32_t rows_ = 0;
};

struct SpareBlock {
    __aicore__ inline void Step(uint32_t groupIdx)
    {
        AscendC::SyncAll<false>();
        rows_ -= groupIdx;
    }
    uint32_t rows_ = 0;
};

template <class Block_>
class BlockKernel {
public:
    using Block = Block_;

    __aicore__ inline void Run(uint32_t groups)
    {
        for (uint32_t groupIdx = 0; groupIdx < groups; groupIdx++) {
            block_.Step(groupIdx);
        }
    }

private:
    Block block_;
};
