#pragma once
[[nodiscard]] __aicore__ inline uint32_t GetCount() { return count_; }
__attribute__((always_inline)) inline void Hot() { Work(); }
static __aicore__ __inline__ void StaticHelper(int32_t v) noexcept { Use(v); }
struct alignas(64) CATLASS_ALIGN(32) Aligned final : public Base<Aligned> {
    __aicore__ inline auto Size() const -> uint32_t { return 64; }
    __aicore__ inline constexpr uint32_t Cap() const noexcept(true) { return 128; }
};
