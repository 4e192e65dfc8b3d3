// Test operator kernel: the user's own code holds autotrace's tags in shapes
// apply never writes. strip, which finds what apply inserted by its tags,
// would take them for apply's: apply refuses the tree, each tag located;
// strip leaves them as they are.
#pragma once
#include "op_base.h"

static int limit = /*autotrace:*/ 5 /*:autotrace*/;
static int spare = 6; // autotrace
static int table[] = { // autotrace
    1, 2};

class MoeOp {
public:
    __aicore__ inline int Process()
    {
        if (limit > 0) {
            limit--;
        }
        decltype(auto) autotraceRet = limit;
        return autotraceRet;
    }
};
