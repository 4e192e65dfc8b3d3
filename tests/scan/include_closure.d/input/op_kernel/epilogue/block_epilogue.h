#pragma once
#include "tile_copy.h"
struct BlockEpilogue {
    CATLASS_DEVICE void Run() { TileCopy(out, in); }
};
