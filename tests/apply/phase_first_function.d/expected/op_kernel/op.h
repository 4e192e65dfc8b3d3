// Test operator kernel class: no rule names a phase (the halves wait with
// WaitEvent, which no stage rule lists), so the first function reached names
// it: "process-cube aic ...", "process-vector aiv ..."; the waits of one
// function are told apart by their flag.
#pragma once
#include "op_base.h"

constexpr uint16_t QUANT_DONE = 1;
constexpr uint16_t MM1_DONE = 2;

template <typename T>
class PreprocessOperation {
public:
    __aicore__ inline void Init(GM_ADDR x)
    {
        xGm_.SetGlobalBuffer((__gm__ T *)x);
    }

    __aicore__ inline void ProcessCube()
    {
        MoeTracing(TRACE_POINT("process-cube aic wait-event", "B")); // autotrace
        AscendC::WaitEvent(QUANT_DONE);
        MoeTracing(TRACE_POINT("process-cube aic wait-event", "E")); // autotrace
        for (uint32_t row = 0; row < rows_; row++) {
            acc_ += xGm_.GetValue(row);
        }
        AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(MM1_DONE);
    }

    __aicore__ inline void ProcessVector()
    {
        for (uint32_t row = 0; row < rows_; row++) {
            acc_ += xGm_.GetValue(row);
        }
        AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(QUANT_DONE);
        MoeTracing(TRACE_POINT("process-vector aiv wait-event mm1-done", "B")); // autotrace
        AscendC::WaitEvent(MM1_DONE);
        MoeTracing(TRACE_POINT("process-vector aiv wait-event mm1-done", "E")); // autotrace
        acc_ = 0;
        MoeTracing(TRACE_POINT("process-vector aiv wait-event quant-done", "B")); // autotrace
        AscendC::WaitEvent(QUANT_DONE);
        MoeTracing(TRACE_POINT("process-vector aiv wait-event quant-done", "E")); // autotrace
    }

private:
    AscendC::GlobalTensor<T> xGm_;
    uint32_t rows_ = 4;
    T acc_ = 0;
};
