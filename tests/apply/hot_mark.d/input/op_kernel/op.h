// A marker (`hot /RE/ #N "LABEL" mark`): B and E together right before the
// second call of Gmm1, the instant it starts; a second apply finds it there.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        Gmm1();
        Prep();
        Gmm1();
    }

private:
    __aicore__ inline void Gmm1() { n_ += 1; }
    __aicore__ inline void Prep() { n_ += 2; }

    int n_ = 0;
};
