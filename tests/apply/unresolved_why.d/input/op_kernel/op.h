// Test operator: three calls the planner cannot follow: two of Run (Stage's
// or Flush's), one of Reset (ns_a's, seen through `using namespace`).
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

namespace ns_a {
__aicore__ inline void Reset(uint32_t &rows) { rows = 0; }
}
namespace ns_b {
__aicore__ inline void Reset(uint32_t &rows) { rows = 1; }
}
using namespace ns_a;

template <typename T>
class MoeOp {
public:
    __aicore__ inline void Process()
    {
        stage_.Run(rows_);        // T is a template parameter
        stages_[0].Run(rows_);    // an expression
        Reset(rows_);             // ns_a::Reset, through `using namespace`
    }

private:
    __aicore__ inline void Helper() {}

    T stage_;
    Stage stages_[2];
    uint32_t rows_ = 4;
};
