#pragma once
struct MoeDistributeGmmTilingData {
    uint32_t epWorldSize;
    uint32_t expertPerRank;
    uint32_t groupNum;
};
