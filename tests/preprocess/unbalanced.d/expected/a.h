void F_a_h()
{
    MoeTracing(TRACE_POINT("processing a.h", "B"));
    MoeTracing(TRACE_POINT("processing a.h", "E"));
}
