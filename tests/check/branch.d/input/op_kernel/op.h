#include "op_base.h"

void Process(uint32_t n)
{
    MoeTracing(TRACE_POINT("processing", "B"));
    if (n > 4) {
        MoeTracing(TRACE_POINT("processing", "E"));
    }
    if ASCEND_IS_AIV {
        MoeTracing(TRACE_POINT("processing aiv", "B"));
    } else {
        n++;
    }
    MoeTracing(TRACE_POINT("processing aiv", "E"));
}
