#include "op_base.h"

void Process(uint32_t n)
{
    MoeTracing(TRACE_POINT("processing", "B"));
    MoeTracing(TRACE_POINT("processing", "E"));
    if (n > 1) {
        MoeTracing(TRACE_POINT("processing", "E"));
    }
    MoeTracing(TRACE_POINT("processing stray", "E"));
}
