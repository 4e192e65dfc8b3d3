// GroupedMatmulBlock: one expert group's matmul C (m x n) = A (m x k) * W (k x n) on the cube core.
// LoadWeight brings the group's expert weight into L1 once; operator() then works tile by tile
// (BASE_M x BASE_N output tiles, a K loop of BASE_K slices per tile).
#ifndef GEMM_BLOCK_BLOCK_GROUPED_MATMUL_H
#define GEMM_BLOCK_BLOCK_GROUPED_MATMUL_H

#include "../../moe_distribute_dispatch_gmm_base.h"

template <uint32_t TILE_M, uint32_t TILE_N, uint32_t TILE_K>
class GroupedMatmulBlock {
public:
    CATLASS_DEVICE GroupedMatmulBlock() {}

    // maxWeight: elements of the largest expert weight (k x n) this block will load.
    CATLASS_DEVICE void Init(AscendC::TPipe *pipe, uint32_t maxWeight)
    {
        pipe->InitBuffer(l1W_, maxWeight * sizeof(float));
        pipe->InitBuffer(l1A_, TILE_M * TILE_K * sizeof(float));
        pipe->InitBuffer(l0B_, TILE_K * TILE_N * sizeof(float));
        pipe->InitBuffer(l0C_, TILE_M * TILE_N * sizeof(float));
    }

    CATLASS_DEVICE void LoadWeight(const AscendC::GlobalTensor<float> &w, uint32_t elements)
    {
        AscendC::DataCopy(l1W_.Get<float>(), w, elements);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(AscendC::EVENT_ID1);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(AscendC::EVENT_ID1);
    }

    // a and c are row-major with leading dimensions k and n; the weight is the loaded one.
    CATLASS_DEVICE void operator()(const AscendC::GlobalTensor<float> &a,
                                   const AscendC::GlobalTensor<float> &c, uint32_t m, uint32_t n,
                                   uint32_t k)
    {
        uint32_t mTiles = (m + TILE_M - 1) / TILE_M;
        uint32_t nTiles = (n + TILE_N - 1) / TILE_N;
        uint32_t kTiles = (k + TILE_K - 1) / TILE_K;
        AscendC::LocalTensor<float> tileA = l1A_.Get<float>();
        AscendC::LocalTensor<float> weight = l1W_.Get<float>();
        AscendC::LocalTensor<float> tileB = l0B_.Get<float>();
        AscendC::LocalTensor<float> tileC = l0C_.Get<float>();
        for (uint32_t tileIdx = 0; tileIdx < mTiles * nTiles; tileIdx++) {
            uint32_t m0 = tileIdx / nTiles * TILE_M;
            uint32_t n0 = tileIdx % nTiles * TILE_N;
            uint32_t tm = m - m0 < TILE_M ? m - m0 : TILE_M;
            uint32_t tn = n - n0 < TILE_N ? n - n0 : TILE_N;
            for (uint32_t kIdx = 0; kIdx < kTiles; kIdx++) {
                uint32_t k0 = kIdx * TILE_K;
                uint32_t tk = k - k0 < TILE_K ? k - k0 : TILE_K;
                for (uint32_t r = 0; r < tm; r++) {
                    AscendC::DataCopy(tileA[r * tk], a[(uint64_t)(m0 + r) * k + k0], tk);
                }
                for (uint32_t r = 0; r < tk; r++) {
                    AscendC::DataCopy(tileB[r * tn], weight[(k0 + r) * n + n0], tn);
                }
                AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(AscendC::EVENT_ID0);
                AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(AscendC::EVENT_ID0);
                AscendC::MmadParams params;
                params.m = (uint16_t)tm;
                params.n = (uint16_t)tn;
                params.k = (uint16_t)tk;
                params.cmatrixInitVal = kIdx == 0;
                AscendC::Mmad(tileC, tileA, tileB, params);
            }
            AscendC::SetFlag<AscendC::HardEvent::M_FIX>(AscendC::EVENT_ID0);
            AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(AscendC::EVENT_ID0);
            for (uint32_t r = 0; r < tm; r++) {
                AscendC::DataCopy(c[(uint64_t)(m0 + r) * n + n0], tileC[r * tn], tn);
            }
        }
    }

private:
    AscendC::TBuf<AscendC::TPosition::B1> l1W_;
    AscendC::TBuf<AscendC::TPosition::A1> l1A_;
    AscendC::TBuf<AscendC::TPosition::B2> l0B_;
    AscendC::TBuf<AscendC::TPosition::CO1> l0C_;
};

#endif
