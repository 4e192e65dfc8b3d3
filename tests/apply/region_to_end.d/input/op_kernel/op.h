// A region to the end of its block (`region from /.../ to end`): the body of a
// do { } while (false) from its wait on, whatever the last statement is;
// the early break leaves the region through its own E.
#pragma once
#include "op_base.h"

__aicore__ inline void WaitFlag(int f) { (void)f; }

class Op {
public:
    __aicore__ inline void Process()
    {
        do {
            Load();
            WaitFlag(1);
            if (n_ < 0) {
                break;
            }
            Compute();
            n_ += 2;
        } while (false);
        Load();
    }

private:
    __aicore__ inline void Load() { n_ += 1; }
    __aicore__ inline void Compute() { n_ *= 2; }

    int n_ = 0;
};
