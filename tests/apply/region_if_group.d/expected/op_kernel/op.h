// Test operator kernel class: a region whose first statement is inside an
// #if group starts before the group, so that it balances whether or not the
// build defines SYNC_MODE.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        MoeTracing(TRACE_POINT("gmm1", "B")); // autotrace
#ifdef SYNC_MODE
        AscendC::SyncAll<false>();
#endif
        Gmm1();
        MoeTracing(TRACE_POINT("gmm1", "E")); // autotrace
        MoeTracing(TRACE_POINT("gmm2", "B")); // autotrace
        Gmm2();
#ifdef SYNC_MODE
        AscendC::SyncAll<false>();
#endif
        MoeTracing(TRACE_POINT("gmm2", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Gmm1() { n_++; }
    __aicore__ inline void Gmm2() { n_--; }
    int n_ = 0;
};
