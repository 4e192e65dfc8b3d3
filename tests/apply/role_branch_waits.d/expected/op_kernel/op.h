// Test operator kernel class: an AIV role branch is named for its role
// (send-core) even when its body waits for the cube cores, and a stage
// whose phase keeps its name as written (phase "{Name}": CombineV2) does
// not say its name twice in its own label.
#pragma once
#include "op_base.h"

constexpr uint16_t SYNCFLAGC2V = 3;

template <typename T>
class RoleKernel {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("role-kernel", "B")); // autotrace
        if (AscendC::GetSubBlockIdx() == 0) {
            MoeTracing(TRACE_POINT("role-kernel send-core", "B")); // autotrace
            MoeTracing(TRACE_POINT("role-kernel cross-core-wait-flag", "B")); // autotrace
            AscendC::CrossCoreWaitFlag(SYNCFLAGC2V);
            MoeTracing(TRACE_POINT("role-kernel cross-core-wait-flag", "E")); // autotrace
            for (uint32_t t = 0; t < tokens_; t++) {
                acc_ += t;
            }
            MoeTracing(TRACE_POINT("role-kernel send-core", "E")); // autotrace
        }
        CombineV2();
        MoeTracing(TRACE_POINT("role-kernel", "E")); // autotrace
    }

private:
    __aicore__ inline void CombineV2()
    {
        MoeTracing(TRACE_POINT("CombineV2", "B")); // autotrace
        AscendC::SyncAll();
        for (uint32_t t = 0; t < tokens_; t++) {
            acc_ -= t;
        }
        MoeTracing(TRACE_POINT("CombineV2", "E")); // autotrace
    }

    uint32_t tokens_ = 4;
    T acc_ = 0;
};
