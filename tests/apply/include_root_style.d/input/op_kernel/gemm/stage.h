// A stage that includes a sibling by its path from the kernel root.
#ifndef GEMM_STAGE_H
#define GEMM_STAGE_H
#include "gemm/helper.h"

__aicore__ inline void Stage()
{
    Helper();
}
#endif
