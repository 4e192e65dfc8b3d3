// Uses the runtime without including it, and nothing includes it.
void Helper()
{
    MoeTracing(TRACE_POINT("processing helper", "B"));
    MoeTracing(TRACE_POINT("processing helper", "E"));
}
