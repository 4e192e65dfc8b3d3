// Uses the runtime without including it: the one translation unit that reads
// it (op.cpp, after op.h) has declared the runtime first, as C++ asks.
void Helper()
{
    MoeTracing(TRACE_POINT("processing helper", "B"));
    MoeTracing(TRACE_POINT("processing helper", "E"));
}
