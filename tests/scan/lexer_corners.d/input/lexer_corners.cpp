// Corners where the two C++ lexers could part (tests/lexers.test): literals, comments,
// directives and continuations around TRACE_POINT.
// a comment \
   continued TRACE_POINT("c", "B")
int a = 1'000; MoeTracing(TRACE_POINT("after separator", "B"));
const char *r = R"x(TRACE_POINT("raw", "B"))x"; MoeTracing(TRACE_POINT("after raw", "E"));
const char *s = "TRACE_POINT(\"str\", \"B\")"; char q = '\''; MoeTracing(TRACE_POINT("after char", "B"));
#define P MoeTracing(TRACE_POINT("in define", "B")) \
    ; MoeTracing(TRACE_POINT("continued define", "E"))
/* block TRACE_POINT("b", "B") */ MoeTracing(TRACE_POINT ( "spaced" , "E" ) );
MoeTracing(TRACE_POINT("esc \"q\" \\", "B"));
MoeTracing(TRACE_POINT(u8"prefixed", "B"));
MoeTracing(TRACE_POINT("multi"
   "concat", "B"));
MoeTracing(TRACE_POINT(LABEL, "B"));
x$TRACE_POINT("dollar", "B");
MoeTracing(TRACE_POINT("tab	", "B"));
MoeTracing(TRACE_POINT("line\
cont", "B"));
MoeTracing(TRACE_POINT("unterminated, "B"));
MoeTracing(TRACE_POINT("splice \  
blanks", "B"));
MoeTracing(TRACE_POINT("splice esc\\
n", "B"));
MoeTracing(TRACE_POINT("splice\
\
twice", "E")); MoeTracing(TRACE_POINT("after splices", "E"));
MoeTracing(TRACE_POINT("crlf splice\
", "B"));
