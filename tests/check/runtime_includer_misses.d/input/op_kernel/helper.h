// Uses the runtime without including it: op.cpp reads it after op.h has
// declared the runtime, op_small.cpp before anything has.
void Helper()
{
    MoeTracing(TRACE_POINT("processing helper", "B"));
    MoeTracing(TRACE_POINT("processing helper", "E"));
}
