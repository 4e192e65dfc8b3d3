// Test stages: Dispatch::Run has Combine::Run's loop, but in another file:
// no point.
#pragma once
#include "op_base.h"

class Dispatch {
public:
    __aicore__ inline void Run(uint32_t rows)
    {
        for (uint32_t j = 0; j < rows; j++) {
            AscendC::CrossCoreWaitFlag(5);
            sent_ += j;
        }
    }

private:
    uint32_t sent_ = 0;
};
