#include "op_base.h"

void Process(uint32_t i)
{
    MoeTracing(TRACE_POINT("processing", "B"));
    MoeTracing(TRACE_POINT("processing x", "b"));
    MoeTracing(TRACE_POINT("", "E"));
    MoeTracing(TRACE_POINT(name, "B"));
    MoeTracing(TRACE_POINT("processing y"));
    MoeTracing(TRACE_POINT("processing z", "B"), 1, 2, i);
    MoeTracing(42);
    MoeTracing(i + 1);
    MoeTracing<true, false>(TRACE_POINT("processing z", "E"), i);
    MoeTracing(TRACE_POINT("processing", "E"));
}
