// Test operator kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        for (int groupIdx = 0; groupIdx < 2; groupIdx++) {
            for (int stageIdx = 0; stageIdx < 2; stageIdx++) {
                for (int expertIdx = 0; expertIdx < 2; expertIdx++) {
                    n_++;
                }
            }
        }
    }

    int n_ = 0;
};
