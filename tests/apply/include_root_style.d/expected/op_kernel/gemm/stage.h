// A stage that includes a sibling by its path from the kernel root.
#ifndef GEMM_STAGE_H
#define GEMM_STAGE_H
#include "gemm/helper.h"
#include "op_base.h" // autotrace

__aicore__ inline void Stage()
{
    MoeTracing(TRACE_POINT("stage", "B")); // autotrace
    Helper();
    MoeTracing(TRACE_POINT("stage", "E")); // autotrace
}
#endif
