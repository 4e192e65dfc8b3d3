#include "op_base.h"

void Process()
{
    MoeTracing(TRACE_POINT("processing", "B"));
    MoeTracing(TRACE_POINT("processing wait", "B"));
    MoeTracing(TRACE_POINT("processing copy", "B"));
    MoeTracing(TRACE_POINT("processing wait", "E"));
    MoeTracing(TRACE_POINT("processing copy", "E"));
    MoeTracing(TRACE_POINT("processing copy", "B"));
    MoeTracing(TRACE_POINT("processing copy", "B"));
    MoeTracing(TRACE_POINT("processing copy", "E"));
    MoeTracing(TRACE_POINT("processing", "E"));
}
