// Test stages: the helpers WaitPeers and SignalPeers are defined only in the
// base class template StageBase<T>; the derived stages call them as their
// own (`WaitPeers()` from a class deriving StageBase<float>,
// `this->SignalPeers()` from a class template deriving StageBase<T>), and
// the calls reach the base's definitions, not those of SpareBase.
#pragma once
#include "op_base.h"

template <typename T>
class StageBase {
public:
    __aicore__ inline void WaitPeers()
    {
        AscendC::CrossCoreWaitFlag(1);
        waits_++;
    }

    __aicore__ inline void SignalPeers()
    {
        AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(1);
        signals_++;
    }

protected:
    uint32_t waits_ = 0;
    uint32_t signals_ = 0;
};

// A class with helpers of the same names that no stage derives from: no point.
class SpareBase {
public:
    __aicore__ inline void WaitPeers()
    {
        AscendC::SyncAll<false>();
    }
};

class DispatchStage : public StageBase<float> {
public:
    __aicore__ inline void Run()
    {
        WaitPeers();
        tokens_++;
    }

private:
    uint32_t tokens_ = 0;
};

template <typename T>
class CombineStage : public StageBase<T> {
public:
    __aicore__ inline void Run()
    {
        rows_++;
        this->SignalPeers();
    }

private:
    uint32_t rows_ = 0;
};
