#pragma once
#include "../epilogue/tile_copy.h"
struct Dispatcher {
    __aicore__ inline void Run() { SendTokens(); }
};
