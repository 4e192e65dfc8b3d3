// Test operator: vector functions with scope macros.
#include "op_base.h"

#define __VEC_SCOPE__
#define SIMD_SCOPE

struct POINT {
    int x, y;
};

__aicore__ inline void VFWorkOne(int n)
{
    MoeTracing(TRACE_POINT("vf vf-work-one", "B")); // autotrace
    int a = n;
    __VEC_SCOPE__
    {
        a += 1;
    }
    MoeTracing(TRACE_POINT("vf vf-work-one", "E")); // autotrace
}

__aicore__ inline int VFWorkTwo(int n)
{
    MoeTracing(TRACE_POINT("vf vf-work-two", "B")); // autotrace
    int a = POINT{n, 2}.x;
    SIMD_SCOPE {
        a *= 2;
    }
    SIMD_SCOPE
    {
        a -= 1;
    }
    MoeTracing(TRACE_POINT("vf vf-work-two", "E")); // autotrace
    return a;
}

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
    VFWorkOne(3);
    int b = VFWorkTwo(4);
    VFWorkOne(b);
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}
