// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        uint32_t aivIdx = AscendC::GetSubBlockIdx();
        if (AscendC::GetSubBlockIdx() == 0) {
            Send();
        }
        if (aivIdx == 1) {
            Recv();
        } else if (aivIdx == 2) {
            n_ = 2;
        }
    }

private:
    __aicore__ inline void Send()
    {
        n_ = 1;
    }

    __aicore__ inline void Recv()
    {
        n_ = 3;
    }

    int n_ = 0;
};
