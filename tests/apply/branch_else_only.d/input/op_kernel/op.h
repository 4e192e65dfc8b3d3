// A branch rule that times only the else arm (`branch /RE/ else "LABEL"`):
// the fast path gets no point, the slow path does.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        if (n_ == 0) {
            Load();
        } else {
            Load();
            Compute();
        }
    }

private:
    __aicore__ inline void Load() { n_ += 1; }
    __aicore__ inline void Compute() { n_ *= 2; }

    int n_ = 0;
};
