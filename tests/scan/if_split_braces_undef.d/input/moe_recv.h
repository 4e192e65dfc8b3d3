#pragma once
class MoeRecv {
public:
    __aicore__ inline void RecvTokens(uint32_t expertIdx)
    {
        uint32_t count = GetCount(expertIdx);
#ifdef MOE_FAST_PATH
        if (count == 0) {
            Skip(expertIdx);
            return;
        }
#else
        if (count > 0) {
            CopyIn(expertIdx, count);
#endif
        Compute(expertIdx);
#ifndef MOE_FAST_PATH
        }
#endif
        Release(expertIdx);
    }

    __aicore__ inline void After() { Done(); }
};
