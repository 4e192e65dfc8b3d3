#pragma once
#include "../../epilogue/tile_copy.h"
template <class T>
struct BlockMmad {
    CATLASS_DEVICE void operator()(GlobalTensor<T> const &a)
    {
        for (uint32_t kIdx = 0; kIdx < kLoop; ++kIdx) {
            Mmad(l0c, l0a, l0b, mmadParams);
        }
    }
};
