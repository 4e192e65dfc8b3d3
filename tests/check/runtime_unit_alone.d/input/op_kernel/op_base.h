// The trace point runtime, reduced to its declarations for the check tests.
#ifndef OP_BASE_H
#define OP_BASE_H
#include <cstdint>
#ifndef TRACE_POINT
#define TRACE_POINT(label, event) ((int64_t)0xFFFFFFFFLL)
#endif
template <bool sync = false> inline void MoeTracing(int64_t data) { (void)data; }
template <bool sync = false> inline void MoeTracing(int64_t data, uint32_t index) { (void)data; (void)index; }
template <bool sync = false> inline void MoeTracing(int64_t data, uint32_t extraId, uint32_t index)
{
    (void)data; (void)extraId; (void)index;
}
#endif
