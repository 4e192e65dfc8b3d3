#pragma once
__aicore__ inline void Compute()
{
    #  if defined(ASCEND_TOOLKIT_V2)
        NewApi();
    #  elif defined(ASCEND_TOOLKIT_V1)
        OldApi();
    #  else
        Fallback();
    #  endif
        #ifdef ENABLE_DEBUG
            Dump();
        #endif
}
#if 0
__aicore__ inline void DeadCode() { Never(); }
#endif
