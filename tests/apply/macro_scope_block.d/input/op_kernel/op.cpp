// Test operator: vector functions with scope macros.
#include "op_base.h"

#define __VEC_SCOPE__
#define SIMD_SCOPE

struct POINT {
    int x, y;
};

__aicore__ inline void VFWorkOne(int n)
{
    int a = n;
    __VEC_SCOPE__
    {
        a += 1;
    }
}

__aicore__ inline int VFWorkTwo(int n)
{
    int a = POINT{n, 2}.x;
    SIMD_SCOPE {
        a *= 2;
    }
    SIMD_SCOPE
    {
        a -= 1;
    }
    return a;
}

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    VFWorkOne(3);
    int b = VFWorkTwo(4);
    VFWorkOne(b);
}
