#include "op_base.h"

void Process()
{
    MoeTracing(TRACE_POINT("processing", "B"));
    MoeTracing(TRACE_POINT("processing  double", "B"));
    MoeTracing(TRACE_POINT("processing  double", "E"));
    MoeTracing(TRACE_POINT(" processing lead", "B"));
    MoeTracing(TRACE_POINT(" processing lead", "E"));
    MoeTracing(TRACE_POINT("processing a b c d e f g", "B"));
    MoeTracing(TRACE_POINT("processing a b c d e f g", "E"));
    MoeTracing(TRACE_POINT("processing a b c d e f", "B"));
    MoeTracing(TRACE_POINT("processing a b c d e f", "E"));
    MoeTracing(TRACE_POINT("processing SendCoreFunc", "B"));
    MoeTracing(TRACE_POINT("processing SendCoreFunc", "E"));
    MoeTracing(TRACE_POINT("processing tab\there", "B"));
    MoeTracing(TRACE_POINT("processing tab\there", "E"));
    MoeTracing(TRACE_POINT("processing", "E"));
}
