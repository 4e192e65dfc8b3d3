// Trace points in code are rewritten; everywhere else they are text.
// MoeTracing(TRACE_POINT("in a line comment", "B"));
/* MoeTracing(TRACE_POINT("in a block comment", "B"));
   TRACE_BUILD_STAMP */
#ifndef TRACE_BUILD_STAMP
#define TRACE_BUILD_STAMP 0
#endif
#define TRACE_POINT(label, event) ((int64_t)0xFFFFFFFFLL)
#define MY_BEGIN() MoeTracing(3)

static const char *kDoc = "MoeTracing(TRACE_POINT(\"in a string\", \"B\"))";
static const char *kRaw = R"doc(TRACE_POINT("in a raw string", "B") )" TRACE_BUILD_STAMP)doc";
static const char kQuote = '"';
static const int kBig = 1'000'000;

__aicore__ inline uint64_t Stamp() { return (uint64_t)(0x02b441c77784019cULL /* TRACE_BUILD_STAMP */); }

__aicore__ inline void Process(uint32_t n)
{
    MoeTracing(4); // TRACE_POINT("trailing", "E")
    for (uint32_t groupIdx = 0; groupIdx < n; groupIdx++) {
        MoeTracing<true>(5, groupIdx);
        Wait(kDoc, kRaw, kQuote, kBig);
        MoeTracing(6,
                   groupIdx);
    }
    if (n == 0) {
        MoeTracing(7);
        return;
    }
    MoeTracing(8);
}
