#pragma once
#define SOC_VERSION_910B 220
#if __CCE_AICORE__ == 100
__aicore__ inline void Impl() { V100(); }
#elif __CCE_AICORE__ >= 220 && __CCE_AICORE__ < 300
__aicore__ inline void Impl() { V220(); }
#elif (__CCE_AICORE__ / 100) == 3
__aicore__ inline void Impl() { V300(); }
#else
__aicore__ inline void Impl() { Generic(); }
#endif
#if SOC_VERSION_910B == 220 || defined(FORCE)
__aicore__ inline void Extra() { Tune(); }
#endif
