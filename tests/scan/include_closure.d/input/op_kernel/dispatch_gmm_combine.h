#pragma once
#include "gemm/kernel/grouped_matmul.h"
#include "epilogue/block_epilogue.h"
#include "raw_distributed/dispatch.h"

template <class T>
class DispatchGmmCombine {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling);
    __aicore__ inline void Process();
};

template <class T>
__aicore__ inline void DispatchGmmCombine<T>::Process()
{
    dispatcher_.Run();
    gmm_(params_);
    epilogue_.Run();
}
