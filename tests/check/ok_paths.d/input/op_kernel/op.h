#include "op_base.h"

class Op {
public:
    // E before each early return is legitimate: every path leaves through its E.
    void Process(uint32_t n)
    {
        MoeTracing(TRACE_POINT("processing", "B"));
        if (n == 0) {
            MoeTracing(TRACE_POINT("processing", "E"));
            return;
        }
        for (uint32_t groupIdx = 0; groupIdx < n; groupIdx++) {
            MoeTracing(TRACE_POINT("processing moe-process", "B"), groupIdx);
            if (groupIdx % 2 == 1) {
                MoeTracing(TRACE_POINT("processing moe-process", "E"), groupIdx);
                continue;
            }
            switch (groupIdx) {
            case 4:
                MoeTracing<true>(TRACE_POINT("processing wait", "B"), 1, groupIdx);
                MoeTracing(TRACE_POINT("processing wait", "E"), 1, groupIdx);
                break;
            default:
                break;
            }
            MoeTracing(TRACE_POINT("processing moe-process", "E"), groupIdx);
        }
        // TRACE_POINT("commented out", "B") is not a point
        MoeTracing(TRACE_POINT("processing", "E"));
    }
};
