// A free stage function that includes nothing of the runtime.
#pragma once
#include <kernel_operator.h>
#include "op_base.h" // autotrace

__aicore__ inline void Stage()
{
    MoeTracing(TRACE_POINT("stage", "B")); // autotrace
    AscendC::SyncAll();
    MoeTracing(TRACE_POINT("stage", "E")); // autotrace
}
