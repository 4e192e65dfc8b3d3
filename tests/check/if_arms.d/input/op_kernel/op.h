// #if groups whose macros nobody defines: the build may take any arm, so
// each arm must balance its points by itself (SYNC_MODE's B in one arm and
// E in the other pair up only if both ran); an arm without #else may also
// be skipped (TAIL_WAIT); FAST_PATH's arms each balance, and pass.
#include "op_base.h"

void Process(uint32_t n)
{
    MoeTracing(TRACE_POINT("processing", "B"));
#ifdef SYNC_MODE
    MoeTracing(TRACE_POINT("processing wait", "B"));
    n++;
#else
    n--;
    MoeTracing(TRACE_POINT("processing wait", "E"));
#endif
#ifdef FAST_PATH
    MoeTracing(TRACE_POINT("processing fast", "B"));
    n += 2;
    MoeTracing(TRACE_POINT("processing fast", "E"));
#else
    MoeTracing(TRACE_POINT("processing slow", "B"));
    n += 3;
    MoeTracing(TRACE_POINT("processing slow", "E"));
#endif
#ifdef TAIL_WAIT
    MoeTracing(TRACE_POINT("processing tail", "B"));
    n++;
#endif
    MoeTracing(TRACE_POINT("processing tail", "E"));
    MoeTracing(TRACE_POINT("processing", "E"));
}
