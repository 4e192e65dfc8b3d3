#include "op_base.h"

void Process(uint32_t n)
{
#if ENABLE_MOE_PROFILING
    MoeTracing(TRACE_POINT("processing", "B"));
    if (n > 0) {
#endif
        Work(n);
#if ENABLE_MOE_PROFILING
    }
    MoeTracing(TRACE_POINT("processing", "E"));
#endif
}

void Other(uint32_t n)
{
#if ENABLE_MOE_PROFILING
    MoeTracing(TRACE_POINT("processing other", "B"));
    MoeTracing(TRACE_POINT("processing other", "E"));
#else
    {
#endif
    Work(n);
#if !ENABLE_MOE_PROFILING
    }
#endif
}
#ifdef ENABLE_MOE_PROFILING
