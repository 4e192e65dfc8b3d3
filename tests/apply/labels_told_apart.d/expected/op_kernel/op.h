// Test operator: three waits in a row, and a tiling-key switch whose cases
// each have a cube branch.
#pragma once
#include "op_base.h"

enum { MM1 = 1, MM2 = 2 };

__aicore__ void WaitFlagDev(int flag); // a library function, defined elsewhere
__aicore__ inline bool IsCube() { return true; }

class MoeOp {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        MoeTracing(TRACE_POINT("processing wait-flag-dev mm1", "B")); // autotrace
        WaitFlagDev(MM1);
        MoeTracing(TRACE_POINT("processing wait-flag-dev mm1", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing wait-flag-dev mm2", "B")); // autotrace
        WaitFlagDev(MM2);
        MoeTracing(TRACE_POINT("processing wait-flag-dev mm2", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing wait-flag-dev", "B")); // autotrace
        WaitFlagDev(rows_ + 1);
        MoeTracing(TRACE_POINT("processing wait-flag-dev", "E")); // autotrace
        switch (key_) {
        case 0: {
            if (IsCube()) {
                MoeTracing(TRACE_POINT("processing cube", "B")); // autotrace
                acc_ += 1;
                MoeTracing(TRACE_POINT("processing cube", "E")); // autotrace
            }
            break;
        }
        case 1: {
            if (IsCube()) {
                MoeTracing(TRACE_POINT("processing cube", "B")); // autotrace
                acc_ += 2;
                MoeTracing(TRACE_POINT("processing cube", "E")); // autotrace
            }
            break;
        }
        default:
            break;
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    uint32_t rows_ = 4;
    uint32_t key_ = 0;
    uint32_t acc_ = 0;
};
