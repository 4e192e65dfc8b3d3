#include "op_base.h"

void B()
{
    MoeTracing(TRACE_POINT("combine", "E"));
}
