// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process() {/*autotrace:*/ MoeTracing(TRACE_POINT("processing", "B"));/*:autotrace*/ Stage(); n_++; /*autotrace:*/MoeTracing(TRACE_POINT("processing", "E")); /*:autotrace*/}

private:
    __aicore__ inline void Stage() {/*autotrace:*/ MoeTracing(TRACE_POINT("stage", "B"));/*:autotrace*/ n_ = 1; /*autotrace:*/MoeTracing(TRACE_POINT("stage", "E")); /*:autotrace*/}

    int n_ = 0;
};
