void F_b_h()
{
    MoeTracing(TRACE_POINT("processing b.h", "B"));
    MoeTracing(TRACE_POINT("processing b.h", "E"));
}
int G(int n)
{
    MoeTracing(TRACE_POINT("processing g", "B"));
    if (n) return 1;
    MoeTracing(TRACE_POINT("processing g", "E"));
    return 0;
}
