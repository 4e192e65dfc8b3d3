#include "op_base.h"

void Process(uint32_t n)
{
    MoeTracing(TRACE_POINT("processing", "B"));
    for (uint32_t groupIdx = 0; groupIdx < n; groupIdx++) {
        MoeTracing(TRACE_POINT("processing moe-process", "B"), groupIdx);
        if (groupIdx == 3) {
            continue;
        }
        MoeTracing(TRACE_POINT("processing moe-process", "E"), groupIdx);
    }
    while (n-- > 0) {
        MoeTracing(TRACE_POINT("processing", "E"));
    }
}

void Second(uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        MoeTracing(TRACE_POINT("processing k-loop", "B"), k);
    }
}
