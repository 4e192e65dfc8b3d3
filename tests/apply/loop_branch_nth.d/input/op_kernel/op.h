// Positions on loop and branch rules (`loop /RE/ #N`, `branch /RE/ #N`): of
// two loops on one variable and two ifs on one condition, only the second
// of each is timed.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < 2; i++) {
            Load(i);
        }
        if (n_ > 0) {
            Load(1);
        }
        for (uint32_t i = 0; i < 4; i++) {
            Load(i);
        }
        if (n_ > 0) {
            Load(2);
        } else {
            Load(3);
        }
    }

private:
    __aicore__ inline void Load(uint32_t k) { n_ += k; }

    int n_ = 0;
};
