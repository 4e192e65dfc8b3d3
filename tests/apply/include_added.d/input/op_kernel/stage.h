// A free stage function that includes nothing of the runtime.
#pragma once
#include <kernel_operator.h>

__aicore__ inline void Stage()
{
    AscendC::SyncAll();
}
