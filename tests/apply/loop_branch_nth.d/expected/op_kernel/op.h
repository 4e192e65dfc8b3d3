// Positions on loop and branch rules (`loop /RE/ #N`, `branch /RE/ #N`): of
// two loops on one variable and two ifs on one condition, only the second
// of each is timed.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        for (uint32_t i = 0; i < 2; i++) {
            Load(i);
        }
        if (n_ > 0) {
            Load(1);
        }
        for (uint32_t i = 0; i < 4; i++) {
            MoeTracing(TRACE_POINT("processing second loop", "B"), i); // autotrace
            Load(i);
            MoeTracing(TRACE_POINT("processing second loop", "E"), i); // autotrace
        }
        if (n_ > 0) {
            MoeTracing(TRACE_POINT("processing second check", "B")); // autotrace
            Load(2);
            MoeTracing(TRACE_POINT("processing second check", "E")); // autotrace
        } else {
            Load(3);
        }
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Load(uint32_t k) { n_ += k; }

    int n_ = 0;
};
