// Sorted before op_kernel/: its points come first.
__aicore__ inline void First()
{
    MoeTracing(1);
    MoeTracing(2);
}
