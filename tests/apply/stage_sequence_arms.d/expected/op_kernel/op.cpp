// Test operator: a function whose body runs one embedded operator per core
// type, each in its own #if arm (the scan takes both arms). Each stage's
// point stays in its arm: one spanning from the cube arm into the vector arm
// would run in neither build (B in one, E in the other), so apply would put
// it around the whole group and find it missing the next time.
#include "op_base.h"

class OpAic {
public:
    __aicore__ inline void Init(GM_ADDR x) { (void)x; }
    __aicore__ inline void Process() { int a = 1; a++; }
};

class OpAiv {
public:
    __aicore__ inline void Init(GM_ADDR x) { (void)x; }
    __aicore__ inline void Process() { int a = 1; a++; }
};

class OpAivTail {
public:
    __aicore__ inline void Process() { int a = 2; a++; }
};

class Op {
public:
    __aicore__ inline void Run(GM_ADDR x)
    {
        int unused = 0;
#ifdef __DAV_C220_CUBE__
        MoeTracing(TRACE_POINT("processing op-aic", "B")); // autotrace
        OpAic opAic;
        opAic.Init(x);
        opAic.Process();
        MoeTracing(TRACE_POINT("processing op-aic", "E")); // autotrace
#elif defined(__DAV_C220_VEC__)
        MoeTracing(TRACE_POINT("processing op-aiv", "B")); // autotrace
        OpAiv opAiv;
        opAiv.Init(x);
        opAiv.Process();
        OpAivTail tail;
        MoeTracing(TRACE_POINT("processing op-aiv", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing tail", "B")); // autotrace
        tail.Process();
        MoeTracing(TRACE_POINT("processing tail", "E")); // autotrace
#endif
        (void)unused;
    }
};

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    MoeTracing(TRACE_POINT("processing", "B")); // autotrace
    Op op;
    op.Run(x);
    MoeTracing(TRACE_POINT("processing", "E")); // autotrace
}
