// Test stages: Combine::Run's row loop gets a point from the rules nested in
// `in file /combine/ { in function /::Run$/ { ... } }`; Combine::Flush has
// the same loop in the same file and gets none.
#pragma once
#include "op_base.h"

class Combine {
public:
    __aicore__ inline void Run(uint32_t rows)
    {
        for (uint32_t j = 0; j < rows; j++) {
            MoeTracing(TRACE_POINT("processing combine rows", "B"), j); // autotrace
            AscendC::CrossCoreWaitFlag(3);
            out_ += j;
            MoeTracing(TRACE_POINT("processing combine rows", "E"), j); // autotrace
        }
    }

    __aicore__ inline void Flush(uint32_t rows)
    {
        for (uint32_t j = 0; j < rows; j++) {
            AscendC::CrossCoreWaitFlag(4);
            out_ -= j;
        }
    }

private:
    uint32_t out_ = 0;
};
