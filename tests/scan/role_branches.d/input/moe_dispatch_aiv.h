#pragma once
class MoeDispatchAiv {
public:
    __aicore__ inline void Process()
    {
        uint32_t aivIdx = AscendC::GetSubBlockIdx();
        bool isSendCore = aivIdx == 0;
        if (AscendC::GetSubBlockIdx() == 0) {
            SendCoreFunc();
        } else if (aivIdx == 1) {
            RecvCoreFunc();
        } else {
            CompCoreFunc();
        }
        if (isSendCore) {
            WaitSendDone();
        }
    }
private:
    __aicore__ inline void SendCoreFunc() { Send(); }
    __aicore__ inline void RecvCoreFunc() { Recv(); }
    __aicore__ inline void CompCoreFunc() { Quant(); Dequant(); }
};
