// Hand pairs shifted from where the rules put theirs by a declaration: the
// root under another label, a loop body, a function body; each is present.
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        uint32_t n = 2;
        MoeTracing(TRACE_POINT("total", "B"));
        for (uint32_t groupIdx = 0; groupIdx < n; groupIdx++) {
            uint32_t base = groupIdx * 4;
            MoeTracing(TRACE_POINT("group by hand", "B"), groupIdx);
            Stage(base);
            MoeTracing(TRACE_POINT("group by hand", "E"), groupIdx);
        }
        Tail();
        MoeTracing(TRACE_POINT("total", "E"));
    }

private:
    __aicore__ inline void Stage(uint32_t b)
    {
        n_ += b;
    }

    __aicore__ inline void Tail()
    {
        int32_t k = 1;
        MoeTracing(TRACE_POINT("tail by hand", "B"));
        Stage(k);
        Stage(k + 1);
        MoeTracing(TRACE_POINT("tail by hand", "E"));
    }

    int n_ = 0;
};
