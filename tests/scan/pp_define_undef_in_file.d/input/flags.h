#pragma once
#define USE_DOUBLE_BUFFER 1
#undef ENABLE_CHECK
#if USE_DOUBLE_BUFFER
__aicore__ inline void Pipeline() { PingPong(); }
#else
__aicore__ inline void Pipeline() { Single(); }
#endif
#ifdef ENABLE_CHECK
__aicore__ inline void Check() { Verify(); }
#endif
#undef USE_DOUBLE_BUFFER
#if USE_DOUBLE_BUFFER
__aicore__ inline void Again() {}
#endif
