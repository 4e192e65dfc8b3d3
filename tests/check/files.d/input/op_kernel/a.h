#include "op_base.h"

void A()
{
    MoeTracing(TRACE_POINT("dispatch", "B"));
}
