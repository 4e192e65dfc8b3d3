// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        AscendC::CrossCoreWaitFlag(1);
        AscendC::DataCopy(dst_, src_, 16);
        AscendC::SyncAll();
        uint32_t rows = Dequant(2);
        n_ = rows;
    }

private:
    __aicore__ inline uint32_t Dequant(uint32_t v)
    {
        return v * 2;
    }

    AscendC::LocalTensor<float> dst_;
    AscendC::GlobalTensor<float> src_;
    uint32_t n_ = 0;
};
