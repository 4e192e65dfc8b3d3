// Test operator kernel class: an AIV role branch whose rule has an else
// label; the if arm gets "send", the else arm "recv".
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        if (AscendC::GetSubBlockIdx() == 0) {
            AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(2);
            sent_++;
        } else {
            AscendC::CrossCoreWaitFlag(2);
            received_++;
        }
    }

private:
    uint32_t sent_ = 0;
    uint32_t received_ = 0;
};
