#pragma once
#include "moe_base.h"
class MoeTraced {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B"));
        for (uint32_t groupIdx = 0; groupIdx < groupNum_; ++groupIdx) {
            MoeTracing(TRACE_POINT("dispatch-phase1 moe-process", "B"), groupIdx);
            Compute(groupIdx);
            MoeTracing(TRACE_POINT("dispatch-phase1 moe-process", "E"), groupIdx);
        }
        MoeTracing<true>(TRACE_POINT("combine-phase block-epilogue waiting", "B"), 2, stageId_);
        MoeTracing<ENABLE_MOE_PROFILING_BARRIER>(TRACE_POINT("SendCoreFunc", "E"), 0, 1);
        MoeTracing(42);
        MoeTracing(TRACE_POINT(R"(raw "label")", "B"));
        MoeTracing(TRACE_POINT("processing", "E"));
    }
};
