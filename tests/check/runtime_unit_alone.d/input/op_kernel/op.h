#include "op_base.h"

void Process()
{
    MoeTracing(TRACE_POINT("processing", "B"));
    MoeTracing(TRACE_POINT("processing", "E"));
}
