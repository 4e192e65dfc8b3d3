#ifndef MOE_COMMON_H
#define MOE_COMMON_H
constexpr uint32_t MAX_EXPERTS = 256;
__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}
#endif
