// Labels continued with a backslash-newline: the compiler joins the lines
// before it reads the literal (translation phase 2), and so does preprocess.
// The rewritten file keeps every line: a point written over several lines
// becomes its id after as many line breaks (a splice on a directive line,
// so the #define goes on), and the lines after it keep their numbers
// (__LINE__ below, the compiler's messages).
#define TRACE_WAIT_BEGIN() MoeTracing(TRACE_POINT("dispatch \
wait", \
    "B"))

__aicore__ inline void Process(uint32_t n)
{
    MoeTracing(TRACE_POINT("process\
ing", "B"));
    Work(__LINE__);
    for (uint32_t i = 0; i < n; i++) {
        MoeTracing(TRACE_POINT(
            "gmm \  
moe-process", "B"), i);
        Work(__LINE__);
        MoeTracing(TRACE_POINT("gmm moe-process", "E"), i);
    }
    MoeTracing(TRACE_POINT("processing", "E"));
    Last(__LINE__);
}
