// Sorted before op_kernel/: its points come first.
__aicore__ inline void First()
{
    MoeTracing(TRACE_POINT("first", "B"));
    MoeTracing(TRACE_POINT("first", "E"));
}
