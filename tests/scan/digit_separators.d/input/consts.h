#pragma once
constexpr uint64_t kWorkspaceBytes = 16'777'216;
constexpr uint32_t kMask = 0xFFFF'0000u;
__aicore__ inline void Budget(uint64_t bytes)
{
    if (bytes > 1'000'000 && bytes < 0x1'0000'0000ull) {
        Split(bytes / 1'024, 1.5e-3f, .5);
    }
    for (uint32_t i = 0'0; i < 1'0; ++i) Tick(i);
}
