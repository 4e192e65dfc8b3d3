// Test operator: three calls of Run (Stage's or Flush's) the planner cannot
// follow.
#pragma once
#include "op_base.h"

class Stage {
public:
    __aicore__ inline void Run(uint32_t rows)
    {
        AscendC::CrossCoreWaitFlag(1);
        acc_ += rows;
    }

    uint32_t acc_ = 0;
};

class Flush {
public:
    __aicore__ inline void Run(uint32_t rows)
    {
        acc_ -= rows;
    }

    uint32_t acc_ = 0;
};

template <typename T>
class MoeOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        stage_.Run(rows_);        // T is a template parameter
        stages_[0].Run(rows_);    // an expression
        Run(rows_);               // Stage::Run, without an object
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Helper() {}

    T stage_;
    Stage stages_[2];
    uint32_t rows_ = 4;
};
