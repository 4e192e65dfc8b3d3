#include "op_base.h"

void Process(uint32_t n)
{
    MoeTracing(TRACE_POINT("processing", "B"));
    Call(n, (n + 1);
    MoeTracing(TRACE_POINT("processing", "E"));
}
#if defined(OTHER)
#else
#elif 1
#endif
#endif
#ifdef UNCLOSED
void Tail() { (void)0; ]
