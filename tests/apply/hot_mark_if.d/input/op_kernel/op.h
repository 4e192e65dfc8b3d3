// A marker on a call that is all an #ifdef group holds: B and E both go
// before the #ifdef line, together, so that every build has both or neither.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Gmm1();
        Prep();
#ifdef SYNC_MODE
        Gmm1();
#endif
        Prep();
    }

private:
    __aicore__ inline void Gmm1() { n_ += 1; }
    __aicore__ inline void Prep() { n_ += 2; }

    int n_ = 0;
};
