#pragma once
__aicore__ inline void Reduce(uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        if (valid[i])
            sum += Load(i);
        else
            Skip(i);
    while (Pending())
        Poll();
    do
        Spin();
    while (!Ready());
    if (n == 0) return;
    for (;;) if (Done()) break;
}
