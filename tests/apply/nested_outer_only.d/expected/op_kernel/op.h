// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t expertIdx = 0; expertIdx < 4; expertIdx++) {
            MoeTracing(TRACE_POINT("processing expert", "B"), expertIdx); // autotrace
            for (uint32_t r = 0; r < 16; r++) {
                if (r == expertIdx) {
                    break;
                }
                if (r % 2) {
                    continue;
                }
                n_ += r;
            }
            if (n_ > 100) {
                MoeTracing(TRACE_POINT("processing expert", "E"), expertIdx); // autotrace
                break;
            }
            MoeTracing(TRACE_POINT("processing expert", "E"), expertIdx); // autotrace
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

    uint32_t n_ = 0;
};
