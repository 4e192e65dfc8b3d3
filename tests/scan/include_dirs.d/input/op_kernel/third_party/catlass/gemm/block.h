#pragma once
struct Block {
    CATLASS_DEVICE void Run(GM_ADDR x) { Load(x); }
};
