// Test operator kernel class, in the forms of an MC2 operator whose
// Process() runs its stages in turn: labels made of what the code says.
// - a loop over `e < expertNumInOneRank_` is the "expert" loop (a letter
//   names nothing; the bound says what is counted);
// - a condition is named by its last member (isNeedMM), never by the core
//   type (ASCEND_IS_AIV: {core} says it);
// - code both core types run has no core segment;
// - the phase of a long class name is cut to its first words;
// - a Process() called on an object is named for the object (mm1_, mm2_);
// - the core-type branches of two helpers are told apart by the helpers'
//   names, not by -2;
// - a core-type split of set-up code (Init) gets no point.
#pragma once
#include "op_base.h"

constexpr uint16_t SYNC_AIC_AIV = 1;

struct CommonTilingInfo {
    bool isNeedMM;
    uint32_t expertNum;
};
struct TilingData {
    CommonTilingInfo commonTilingInfo;
};

class GmmStage {
public:
    __aicore__ inline void Process(uint32_t n)
    {
        MoeTracing(TRACE_POINT("dispatch-grouped-matmul cross-core-wait-flag", "B")); // autotrace
        AscendC::CrossCoreWaitFlag(SYNC_AIC_AIV);
        MoeTracing(TRACE_POINT("dispatch-grouped-matmul cross-core-wait-flag", "E")); // autotrace
        for (uint32_t row = 0; row < n; row++) {
            acc_ += row;
        }
    }

private:
    uint32_t acc_ = 0;
};

template <typename T>
class DispatchGroupedMatmulPipelinedKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, TilingData *tiling)
    {
        tilingData_ = tiling;
        expertNumInOneRank_ = tiling->commonTilingInfo.expertNum;
        if ASCEND_IS_AIV {
            blockIdx_ = AscendC::GetBlockIdx();
            coreIdx_ = blockIdx_ / 2;
        } else {
            blockIdx_ = AscendC::GetBlockIdx();
            coreIdx_ = blockIdx_;
        }
        xGm_.SetGlobalBuffer((__gm__ T *)x);
    }

    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("dispatch-grouped-matmul", "B")); // autotrace
        MoeTracing(TRACE_POINT("dispatch-grouped-matmul hccl-prepare", "B")); // autotrace
        HcclPrepare();
        MoeTracing(TRACE_POINT("dispatch-grouped-matmul hccl-prepare", "E")); // autotrace
        if (tilingData_->commonTilingInfo.isNeedMM) {
            MoeTracing(TRACE_POINT("dispatch-grouped-matmul is-need-mm", "B")); // autotrace
            MoeTracing(TRACE_POINT("dispatch-grouped-matmul shared-matmul", "B")); // autotrace
            SharedMatmul();
            MoeTracing(TRACE_POINT("dispatch-grouped-matmul shared-matmul", "E")); // autotrace
            AscendC::SyncAll<false>();
            MoeTracing(TRACE_POINT("dispatch-grouped-matmul is-need-mm", "E")); // autotrace
        }
        for (uint32_t e = 0U; e < expertNumInOneRank_; e++) {
            MoeTracing(TRACE_POINT("dispatch-grouped-matmul expert", "B")); // autotrace
            if ASCEND_IS_AIV {
                MoeTracing(TRACE_POINT("dispatch-grouped-matmul aiv cross-core-wait-flag", "B")); // autotrace
                AscendC::CrossCoreWaitFlag(SYNC_AIC_AIV);
                MoeTracing(TRACE_POINT("dispatch-grouped-matmul aiv cross-core-wait-flag", "E")); // autotrace
            }
            AscendC::SyncAll<false>();
            if ASCEND_IS_AIC {
                MoeTracing(TRACE_POINT("dispatch-grouped-matmul expert aic", "B")); // autotrace
                RoutedMatmul(e);
                MoeTracing(TRACE_POINT("dispatch-grouped-matmul expert aic", "E")); // autotrace
            }
            MoeTracing(TRACE_POINT("dispatch-grouped-matmul expert", "E")); // autotrace
        }
        HcclFinalize();
        MoeTracing(TRACE_POINT("dispatch-grouped-matmul", "E")); // autotrace
    }

private:
    __aicore__ inline void HcclPrepare()
    {
        if ASCEND_IS_AIV {
            MoeTracing(TRACE_POINT("dispatch-grouped-matmul hccl-prepare aiv", "B")); // autotrace
            for (uint32_t e = 0U; e < expertNumInOneRank_; e++) {
                sendCnt_[e % 8] = xGm_.GetValue(e);
            }
            MoeTracing(TRACE_POINT("dispatch-grouped-matmul hccl-prepare aiv", "E")); // autotrace
        }
    }

    __aicore__ inline void SharedMatmul()
    {
        MoeTracing(TRACE_POINT("dispatch-grouped-matmul mm1", "B")); // autotrace
        mm1_.Process(coreIdx_);
        MoeTracing(TRACE_POINT("dispatch-grouped-matmul mm1", "E")); // autotrace
        MoeTracing(TRACE_POINT("dispatch-grouped-matmul mm2", "B")); // autotrace
        mm2_.Process(coreIdx_);
        MoeTracing(TRACE_POINT("dispatch-grouped-matmul mm2", "E")); // autotrace
    }

    __aicore__ inline void RoutedMatmul(uint32_t expertIdx)
    {
        for (uint32_t row = 0; row < expertIdx; row++) {
            acc_ += row;
        }
    }

    __aicore__ inline void HcclFinalize()
    {
        MoeTracing(TRACE_POINT("hccl-finalize", "B")); // autotrace
        if ASCEND_IS_AIV {
            MoeTracing(TRACE_POINT("hccl-finalize aiv", "B")); // autotrace
            AscendC::SyncAll<false>();
            sendCnt_[0] = 0;
            MoeTracing(TRACE_POINT("hccl-finalize aiv", "E")); // autotrace
        }
        MoeTracing(TRACE_POINT("hccl-finalize", "E")); // autotrace
    }

    TilingData *tilingData_ = nullptr;
    AscendC::GlobalTensor<T> xGm_;
    GmmStage mm1_;
    GmmStage mm2_;
    uint32_t expertNumInOneRank_ = 0;
    uint32_t blockIdx_ = 0;
    uint32_t coreIdx_ = 0;
    uint32_t acc_ = 0;
    T sendCnt_[8] = {};
};
