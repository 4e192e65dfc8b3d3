// Test operator kernel class: two roots, each with its own label. Dispatch
// is the "dispatch" root and Combine the "combine" root; a stage called
// from each nests under that root's label ({parent}).
#pragma once
#include "op_base.h"

class MoeOp {
public:
    __aicore__ inline void Dispatch()
    {
        tokens_ = 16;
        SendTokens();
    }

    __aicore__ inline void Combine()
    {
        RecvTokens();
        tokens_ = 0;
    }

private:
    __aicore__ inline void SendTokens()
    {
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(1);
        sent_ += tokens_;
    }

    __aicore__ inline void RecvTokens()
    {
        AscendC::CrossCoreWaitFlag(1);
        sent_ -= tokens_;
    }

    uint32_t tokens_ = 0;
    uint32_t sent_ = 0;
};
