#include "op_base.h"

class Op {
public:
    void Process(uint32_t blockIdx)
    {
        MoeTracing(TRACE_POINT("processing", "B"), groupIdx);
        uint32_t groupIdx = blockIdx;
        MoeTracing(TRACE_POINT("processing", "E"), groupIdx);
        for (uint32_t expertIdx = 0; expertIdx < 4; expertIdx++) {
            uint32_t rows = expertIdx * 2;
            MoeTracing(TRACE_POINT("processing expert", "B"), rows, expertIdx);
            MoeTracing(TRACE_POINT("processing expert", "E"), rows, expertIdx);
        }
        MoeTracing(TRACE_POINT("processing tail", "B"), (uint32_t)expertIdx);
        MoeTracing(TRACE_POINT("processing tail", "E"), blockIdx_, GetIdx());
    }
    uint32_t blockIdx_;
};
