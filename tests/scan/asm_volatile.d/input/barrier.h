#pragma once
__aicore__ inline int64_t ReadCycle()
{
    int64_t cycle = 0;
    asm volatile("MOV %0, SYS_CNT\n" : "=l"(cycle) : : "memory");
    __asm__ __volatile__("" ::: "memory");
    return cycle;
}

__aicore__ inline void FullBarrier()
{
    PipeBarrier<PIPE_ALL>();
    asm volatile("dsb sy");
    Fence();
}
