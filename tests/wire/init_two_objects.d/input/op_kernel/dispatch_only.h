// A second kernel class of the operator: the dispatch alone, without the expert matmuls.
#ifndef DISPATCH_ONLY_H
#define DISPATCH_ONLY_H
#include "kernel_operator.h"

class DispatchOnly {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR expertIds, GM_ADDR y, GM_ADDR expertTokenNums,
                                GM_ADDR workspace)
    {
        x_ = x;
        expertIds_ = expertIds;
        y_ = y;
        expertTokenNums_ = expertTokenNums;
        workspace_ = workspace;
    }
    __aicore__ inline void Process() {}

private:
    GM_ADDR x_ = nullptr;
    GM_ADDR expertIds_ = nullptr;
    GM_ADDR y_ = nullptr;
    GM_ADDR expertTokenNums_ = nullptr;
    GM_ADDR workspace_ = nullptr;
};
#endif
