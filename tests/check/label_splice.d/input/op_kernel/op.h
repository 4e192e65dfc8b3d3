// Labels continued with a backslash-newline are the text the compiler sees
// once it has joined the lines (translation phase 2): each B here pairs with
// the E written on one line, and no label holds a newline.
#include "op_base.h"

void Process(uint32_t n)
{
    MoeTracing(TRACE_POINT("process\
ing", "B"));
    for (uint32_t i = 0; i < n; i++) {
        MoeTracing(TRACE_POINT("processing \  
dispatch", "B"), i);
        MoeTracing(TRACE_POINT("processing dispatch", "E"), i);
    }
    MoeTracing(TRACE_POINT(
        "processing", "E"));
}
