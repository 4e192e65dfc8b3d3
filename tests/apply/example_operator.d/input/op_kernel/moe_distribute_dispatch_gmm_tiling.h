// Tiling data of MoeDistributeDispatchGmm, shared by op_host (which fills it) and the kernel.
#ifndef MOE_DISTRIBUTE_DISPATCH_GMM_TILING_H
#define MOE_DISTRIBUTE_DISPATCH_GMM_TILING_H

#include <cstdint>

struct MoeDistributeDispatchGmmTilingData {
    uint32_t tokenNum;       // T: tokens of this rank, each routed to one expert
    uint32_t hiddenSize;     // H: token width, K of GMM1 and N of GMM2
    uint32_t interSize;      // I: expert intermediate width, N of GMM1 and K of GMM2
    uint32_t expertNum;      // E: local experts, one expert group each
    uint32_t blockDim;       // 1C2V groups launched
    uint32_t baseM;          // cube tile
    uint32_t baseN;
    uint32_t baseK;
    uint64_t windowOffset;   // workspace byte offsets: dispatched tokens, E x T x H float
    uint64_t gatherOffset;   // token index of each dispatched row, E x T int32
    uint64_t gmm1Offset;     // GMM1 output, E x T x I float
    uint64_t actOffset;      // epilogue output (scale + relu), E x T x I float
    uint64_t gmm2Offset;     // GMM2 output, E x T x H float
    uint64_t workspaceSize;  // bytes of user workspace
};

#endif
