#pragma once
__aicore__ inline int32_t TryAcquire(uint32_t slot)
{
    uint32_t tries = 0;
retry:
    if (!Lock(slot)) {
        if (++tries < 8) goto retry;
        return -1;
    }
    return 0;
}
