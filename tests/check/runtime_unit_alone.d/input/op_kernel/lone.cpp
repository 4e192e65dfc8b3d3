// A translation unit of its own using the runtime it never includes: an error.
void Lone()
{
    MoeTracing(TRACE_POINT("processing lone", "B"));
    MoeTracing(TRACE_POINT("processing lone", "E"));
}
