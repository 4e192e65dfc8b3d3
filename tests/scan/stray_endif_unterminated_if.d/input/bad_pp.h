#pragma once
#endif
__aicore__ inline void Fine() { Ok(); }
#if defined(NEVER_CLOSED)
__aicore__ inline void Open() { Inside(); }
