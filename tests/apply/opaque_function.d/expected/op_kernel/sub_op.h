// Test embedded operator: sub_op runs an operator of its own
// (`op.Init(...); op.Process();`). Its rule is opaque, so the point goes
// around the statement that calls sub_op and nothing inside it is planned
// (SubOp::Process's wait would be a hot point if it were).
#pragma once
#include "op_base.h"

class SubOp {
public:
    __aicore__ inline void Init(uint32_t rows) { rows_ = rows; }

    __aicore__ inline void Process()
    {
        for (uint32_t groupIdx = 0; groupIdx < rows_; groupIdx++) {
            AscendC::CrossCoreWaitFlag(2);
            done_ += groupIdx;
        }
    }

private:
    uint32_t rows_ = 0;
    uint32_t done_ = 0;
};

__aicore__ inline void sub_op(uint32_t rows)
{
    SubOp op;
    op.Init(rows);
    op.Process();
}
