// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        bool isSendCore = AscendC::GetSubBlockIdx() == 0;
        if (isSendCore)
            Send();
        else
            Recv();
    }

private:
    __aicore__ inline void Send()
    {
        n_ = 1;
    }

    __aicore__ inline void Recv()
    {
        n_ = 2;
    }

    int n_ = 0;
};
