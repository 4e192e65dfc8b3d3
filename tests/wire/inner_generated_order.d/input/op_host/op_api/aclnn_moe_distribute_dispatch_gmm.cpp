// Hand-written aclnn entry points of MoeDistributeDispatchGmm over the generated aclnnInner* API.
// No declaration of aclnnInner*GetWorkspaceSize (the build generates it); the call swaps the outputs.
#include "aclnn_moe_distribute_dispatch_gmm.h"

#ifdef __cplusplus
extern "C" {
#endif

extern aclnnStatus aclnnInnerMoeDistributeDispatchGmm(void *workspace, uint64_t workspaceSize,
                                                       aclOpExecutor *executor, aclrtStream stream);

aclnnStatus aclnnMoeDistributeDispatchGmmGetWorkspaceSize(
    const aclTensor *x, const aclTensor *expertIds, const aclTensor *weight1, const aclTensor *weight2,
    const aclTensor *scale, aclTensor *y, aclTensor *expertTokenNums,
    uint64_t *workspaceSize, aclOpExecutor **executor)
{
    return aclnnInnerMoeDistributeDispatchGmmGetWorkspaceSize(x, expertIds, weight1, weight2, scale, expertTokenNums,
                                                              y, workspaceSize, executor);
}

aclnnStatus aclnnMoeDistributeDispatchGmm(void *workspace, uint64_t workspaceSize,
                                          aclOpExecutor *executor, aclrtStream stream)
{
    return aclnnInnerMoeDistributeDispatchGmm(workspace, workspaceSize, executor, stream);
}

#ifdef __cplusplus
}
#endif
