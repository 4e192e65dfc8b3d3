#include "op_base.h"

void Process()
{
    MoeTracing(TRACE_POINT("dispatch", "B"));
    MoeTracing(TRACE_POINT("dispatch", "E"));
}
