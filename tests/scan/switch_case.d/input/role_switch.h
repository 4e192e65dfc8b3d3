#pragma once
enum class CoreRole : uint8_t { SEND = 0, RECV = 1, COMPUTE = 2 };

__aicore__ inline void RunRole(CoreRole role, uint32_t n)
{
    switch (role) {
        case CoreRole::SEND: {
            SendCoreFunc(n);
            break;
        }
        case CoreRole::RECV:
            for (uint32_t i = 0; i < n; ++i) {
                if (Done(i)) break;
                RecvCoreFunc(i);
            }
            break;
        case CoreRole::COMPUTE:
            CompCoreFunc(n);
            [[fallthrough]];
        default:
            return;
    }
}
