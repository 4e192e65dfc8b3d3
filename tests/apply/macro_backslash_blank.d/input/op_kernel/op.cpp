// Test operator: a function-like macro whose continuation backslashes are
// followed by blanks on some lines ("\\   " then the newline): GCC and clang
// still splice those lines, so the macro goes on to its last line and the
// kernel entry after it balances.
#include "op_base.h"

struct Worker {
    __aicore__ inline void Init(GM_ADDR x) { (void)x; }
    __aicore__ inline void Process() {}
};

#define RUN_WORKER(...)                  \
    do {                                 \
        Worker op;                       \   
        op.Init(x);                      \	
        op.Process();                    \
    } while (0)

__aicore__ inline void Stage(int n)
{
    int a = n;
    a += 1;
}

extern "C" __global__ __aicore__ void op(GM_ADDR x)
{
    if (x != nullptr) {
        RUN_WORKER(1);
    }
    Stage(2);
}
