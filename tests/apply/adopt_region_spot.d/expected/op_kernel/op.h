// Regions of the operator's own rules beside hand pairs: one that opens where
// a hand pair opens and holds more (it nests around it: the operator asked for
// it; the shipped policy's set-up parts are skipped there, tests/corpus
// vllm-w4a8-hand), one whose B and E would interleave with a hand pair's
// (skipped), one that starts with a declaration before a hand B and holds only
// work that pair times (it goes inside it).
#pragma once
#include "op_base.h"

class Op {
public:
    __aicore__ inline void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B")); // autotrace
        Spot();
        Cross();
        Inside();
        MoeTracing(TRACE_POINT("processing", "E")); // autotrace
    }

private:
    __aicore__ inline void Spot()
    {
        MoeTracing(TRACE_POINT("processing spot", "B")); // autotrace
        MoeTracing(TRACE_POINT("processing spot middle", "B")); // autotrace
        MoeTracing(TRACE_POINT("warm-up by hand", "B"));
        Begin();
        Load();
        MoeTracing(TRACE_POINT("warm-up by hand", "E"));
        Compute();
        Finish();
        MoeTracing(TRACE_POINT("processing spot middle", "E")); // autotrace
        MoeTracing(TRACE_POINT("processing spot", "E")); // autotrace
    }

    __aicore__ inline void Cross()
    {
        MoeTracing(TRACE_POINT("processing cross", "B")); // autotrace
        Begin();
        Load();
        MoeTracing(TRACE_POINT("tail by hand", "B"));
        Finish();
        Compute();
        MoeTracing(TRACE_POINT("tail by hand", "E"));
        MoeTracing(TRACE_POINT("processing cross", "E")); // autotrace
    }

    __aicore__ inline void Inside()
    {
        MoeTracing(TRACE_POINT("processing inside", "B")); // autotrace
        Begin();
        uint32_t k = 2;
        MoeTracing(TRACE_POINT("prep by hand", "B"));
        MoeTracing(TRACE_POINT("processing inside head", "B")); // autotrace
        Load();
        Prep(k);
        MoeTracing(TRACE_POINT("processing inside head", "E")); // autotrace
        Compute();
        MoeTracing(TRACE_POINT("prep by hand", "E"));
        MoeTracing(TRACE_POINT("processing inside", "E")); // autotrace
    }

    __aicore__ inline void Begin() { n_ = 0; }
    __aicore__ inline void Load() { n_ += 1; }
    __aicore__ inline void Prep(uint32_t k) { n_ += k; }
    __aicore__ inline void Compute() { n_ *= 2; }
    __aicore__ inline void Finish() { n_ -= 1; }

    int n_ = 0;
};
