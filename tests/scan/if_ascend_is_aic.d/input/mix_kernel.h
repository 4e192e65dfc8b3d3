#pragma once
class MixKernel {
public:
    __aicore__ inline void Process()
    {
        if ASCEND_IS_AIC {
            AicProcess();
            return;
        }
        if ASCEND_IS_AIV {
            AivProcess();
        }
        if (g_coreType == AscendC::AIV) {
            AivTail();
        } else if (g_coreType == AscendC::AIC) {
            AicTail();
        }
    }
private:
    __aicore__ inline void AicProcess() { Mmad(); }
    __aicore__ inline void AivProcess() { VecCompute(); }
};
