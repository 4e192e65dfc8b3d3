// Uses the runtime without including it: compiles only by luck of include order.
void Helper()
{
    MoeTracing(TRACE_POINT("processing helper", "B"));
    MoeTracing(TRACE_POINT("processing helper", "E"));
}
