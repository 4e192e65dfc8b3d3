#pragma once
namespace Moe {
namespace {
__aicore__ inline uint32_t Align32(uint32_t v) { return (v + 31) / 32 * 32; }
}
namespace Detail::Impl {
struct Helper { __aicore__ inline void Do(); };
}
__aicore__ inline void Detail::Impl::Helper::Do() { Align32(3); }
inline namespace v2 {
__aicore__ inline void Api() { ::Moe::Detail::Impl::Helper{}.Do(); }
}
}
__aicore__ inline void Moe::Global() {}
