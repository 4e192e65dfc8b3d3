// Host-side tiling of MoeDistributeDispatchGmm: block count and workspace layout from the shapes.
// Plain C++ so that the tiling function (op_host) and the simulated launch (sim/) share it.
#ifndef OP_HOST_MOE_DISTRIBUTE_DISPATCH_GMM_TILING_H
#define OP_HOST_MOE_DISTRIBUTE_DISPATCH_GMM_TILING_H

#include <cstdint>

#include "../op_kernel/moe_distribute_dispatch_gmm_tiling.h"

constexpr uint64_t MOE_DISPATCH_GMM_WS_ALIGN = 512;

inline uint64_t MoeDispatchGmmAlign(uint64_t bytes)
{
    return (bytes + MOE_DISPATCH_GMM_WS_ALIGN - 1) / MOE_DISPATCH_GMM_WS_ALIGN * MOE_DISPATCH_GMM_WS_ALIGN;
}

// Returns false for shapes the kernel does not handle.
inline bool ComputeMoeDistributeDispatchGmmTiling(uint32_t tokenNum, uint32_t hiddenSize,
                                                  uint32_t interSize, uint32_t expertNum,
                                                  uint32_t aicNum,
                                                  MoeDistributeDispatchGmmTilingData &t)
{
    if (tokenNum == 0 || hiddenSize == 0 || interSize == 0 || expertNum == 0 || aicNum == 0) {
        return false;
    }
    t.tokenNum = tokenNum;
    t.hiddenSize = hiddenSize;
    t.interSize = interSize;
    t.expertNum = expertNum;
    t.blockDim = expertNum < aicNum ? expertNum : aicNum;
    t.baseM = 16;
    t.baseN = 16;
    t.baseK = 16;
    uint64_t rows = (uint64_t)expertNum * tokenNum;
    uint64_t off = 0;
    t.windowOffset = off;
    off += MoeDispatchGmmAlign(rows * hiddenSize * sizeof(float));
    t.gatherOffset = off;
    off += MoeDispatchGmmAlign(rows * sizeof(int32_t));
    t.gmm1Offset = off;
    off += MoeDispatchGmmAlign(rows * interSize * sizeof(float));
    t.actOffset = off;
    off += MoeDispatchGmmAlign(rows * interSize * sizeof(float));
    t.gmm2Offset = off;
    off += MoeDispatchGmmAlign(rows * hiddenSize * sizeof(float));
    t.workspaceSize = off;
    return true;
}

#endif
