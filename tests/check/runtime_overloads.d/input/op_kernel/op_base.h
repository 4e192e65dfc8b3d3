// A runtime written the way the field's is: the index forms forward to the
// one-argument form with a record word, which check must not take for a
// malformed trace point.
#ifndef OP_BASE_H
#define OP_BASE_H
#include <cstdint>
#ifndef TRACE_POINT
#define TRACE_POINT(label, event) ((int64_t)0xFFFFFFFFLL)
#endif
template <bool sync = false> inline void MoeTracing(int64_t data)
{
    (void)data;
}
template <bool sync = false> inline void MoeTracing(int64_t data, uint32_t index)
{
    MoeTracing<sync>(data | (int64_t)(((uint64_t)index) << 32));
}
template <bool sync = false> inline void MoeTracing(int64_t data, uint32_t extraId, uint32_t index)
{
    MoeTracing<sync>(data, (extraId | (index << 8)));
}
#endif
