#include "op_base.h"

void Process(uint32_t n)
{
    MoeTracing(TRACE_POINT("processing", "B"));
    if (n == 0) {
        return;
    }
    MoeTracing(TRACE_POINT("processing", "E"));
}

uint32_t Helper(uint32_t n)
{
    MoeTracing(TRACE_POINT("processing helper", "B"));
    return n + 1;
}

void Tail()
{
    MoeTracing(TRACE_POINT("processing tail", "B"));
}
