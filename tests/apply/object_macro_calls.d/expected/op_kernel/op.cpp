// Test operator: the entry runs its kernel class per tiling key through an
// object-like macro it defines itself (INIT_AND_PROCESS: op.Init(...);
// op.Process()). The planner follows the macro's calls to the classes'
// Process(), whose stages it times; the macro's own code is left alone.
#include "op_base.h"

template <int N>
class KernelA {
public:
    __aicore__ inline void Init(GM_ADDR x) { (void)x; }
    __aicore__ inline void Process()
    {
        int a = N;
        Compute(a);
    }
    __aicore__ inline void Compute(int &a) {/*autotrace:*/ MoeTracing(TRACE_POINT("kernel-a", "B"));/*:autotrace*/ a += 1; /*autotrace:*/MoeTracing(TRACE_POINT("kernel-a", "E")); /*:autotrace*/}
};

class KernelB {
public:
    __aicore__ inline void Init(GM_ADDR x) { (void)x; }
    __aicore__ inline void Process()
    {
        int b = 2;
        Compute(b);
    }
    __aicore__ inline void Compute(int &b) {/*autotrace:*/ MoeTracing(TRACE_POINT("kernel-b", "B"));/*:autotrace*/ b *= 2; /*autotrace:*/MoeTracing(TRACE_POINT("kernel-b", "E")); /*:autotrace*/}
};

extern "C" __global__ __aicore__ void op(GM_ADDR x, int key)
{
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
#define INIT_AND_PROCESS \
    op.Init(x);          \
    op.Process()
    if (key == 1) {
        KernelA<1> op;
        INIT_AND_PROCESS;
    } else if (key == 2) {
        KernelB op;
        INIT_AND_PROCESS;
    }
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}
