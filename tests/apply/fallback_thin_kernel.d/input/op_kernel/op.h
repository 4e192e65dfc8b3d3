// Test operator kernel class: Process runs per-chunk work in a loop, then a
// tail; each chunk runs per-tile helpers.
#pragma once
#include "op_base.h"

template <typename T>
class KernelOp {
public:
    __aicore__ inline KernelOp() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        x_ = x;
        y_ = y;
        SetupBuffers();
    }

    __aicore__ inline void Process()
    {
        for (int chunk = 0; chunk < chunks_; chunk++) {
            ComputeChunk(chunk);
        }
        Tail();
    }

private:
    __aicore__ inline void SetupBuffers()
    {
        chunks_ = 4;
    }

    __aicore__ inline void ComputeChunk(int chunk)
    {
        for (int tile = 0; tile < 8; tile++) {
            VecTile(chunk, tile);
        }
    }

    __aicore__ inline void VecTile(int chunk, int tile)
    {
        acc_ += chunk * tile;
    }

    __aicore__ inline void Tail()
    {
        acc_ += 1;
    }

    GM_ADDR x_ = nullptr;
    GM_ADDR y_ = nullptr;
    int chunks_ = 0;
    T acc_ = 0;
};
