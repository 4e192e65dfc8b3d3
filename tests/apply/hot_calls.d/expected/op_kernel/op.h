// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(1);
        MoeTracing(TRACE_POINT("processing cross-core-wait-flag", "E")); // autotrace
        AscendC::DataCopy(dst_, src_, 16);
        MoeTracing(TRACE_POINT("processing sync-all", "B")); // autotrace
        AscendC::SyncAll();
        MoeTracing(TRACE_POINT("processing sync-all", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing dequant", "B")); // autotrace
        uint32_t rows = Dequant(2);
        MoeTracing(TRACE_POINT("processing dequant", "E")); // autotrace
        n_ = rows;
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
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
