// Test operator kernel class: a helper that returns in both branches of an
// #if; the points balance under either (the scan takes the first).
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        n_ = Pick(n_);
    }

private:
    __aicore__ inline int Pick(int v)
    {
#if defined(__DAV_C310__)
        if (v > 8) {
            return Fast(v);
        }
#elif defined(__DAV_M200__)
        if (v > 6)
            return v;
#else
        if (v > 4) {
            return Slow(v);
        }
#endif
        return v + 1;
    }

    __aicore__ inline int Fast(int v) { return v / 2; }
    __aicore__ inline int Slow(int v) { return v - 1; }
    int n_ = 0;
};
