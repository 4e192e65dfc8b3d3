// Helpers of the kernel with code of their own, included by the base header.
#ifndef MOE_REDUCE_HELPERS_H
#define MOE_REDUCE_HELPERS_H
#include "kernel_operator.h"

__aicore__ inline uint32_t GroupsOf(uint32_t n, uint32_t per)
{
    return (n + per - 1) / per;
}
#endif
