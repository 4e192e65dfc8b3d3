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
        if (AscendC::GetSubBlockIdx() == 0) {
            AscendC::CrossCoreWaitFlag(SYNCFLAGC2V);
            for (uint32_t t = 0; t < tokens_; t++) {
                acc_ += t;
            }
        }
        CombineV2();
    }

private:
    __aicore__ inline void CombineV2()
    {
        AscendC::SyncAll();
        for (uint32_t t = 0; t < tokens_; t++) {
            acc_ -= t;
        }
    }

    uint32_t tokens_ = 4;
    T acc_ = 0;
};
