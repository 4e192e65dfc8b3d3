// Test operator kernel class: a region whose first statement is inside an
// #if group starts before the group, so that it balances whether or not the
// build defines SYNC_MODE.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
#ifdef SYNC_MODE
        AscendC::SyncAll<false>();
#endif
        Gmm1();
        Gmm2();
#ifdef SYNC_MODE
        AscendC::SyncAll<false>();
#endif
    }

private:
    __aicore__ inline void Gmm1() { n_++; }
    __aicore__ inline void Gmm2() { n_--; }
    int n_ = 0;
};
