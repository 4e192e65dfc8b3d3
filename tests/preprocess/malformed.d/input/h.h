void H(const char *l)
{
    MoeTracing(TRACE_POINT(l, "B"));
    MoeTracing(TRACE_POINT("x", "Q"));
}
