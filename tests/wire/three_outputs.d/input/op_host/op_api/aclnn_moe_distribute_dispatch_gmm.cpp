// Hand-written aclnn entry points of MoeDistributeDispatchGmm over the generated aclnnInner* API.
#include "aclnn_moe_distribute_dispatch_gmm.h"

#ifdef __cplusplus
extern "C" {
#endif

extern aclnnStatus aclnnInnerMoeDistributeDispatchGmmGetWorkspaceSize(
    const aclTensor *x, const aclTensor *expertIds, const aclTensor *weight1, const aclTensor *weight2,
    const aclTensor *scale, aclTensor *y, aclTensor *expertTokenNums,
    aclTensor *expertOffsets, uint64_t *workspaceSize, aclOpExecutor **executor);
extern aclnnStatus aclnnInnerMoeDistributeDispatchGmm(void *workspace, uint64_t workspaceSize,
                                                       aclOpExecutor *executor, aclrtStream stream);

aclnnStatus aclnnMoeDistributeDispatchGmmGetWorkspaceSize(
    const aclTensor *x, const aclTensor *expertIds, const aclTensor *weight1, const aclTensor *weight2,
    const aclTensor *scale, aclTensor *y, aclTensor *expertTokenNums,
    aclTensor *expertOffsets, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    return aclnnInnerMoeDistributeDispatchGmmGetWorkspaceSize(x, expertIds, weight1, weight2, scale, y,
                                                              expertTokenNums, expertOffsets, workspaceSize, executor);
}

aclnnStatus aclnnMoeDistributeDispatchGmm(void *workspace, uint64_t workspaceSize,
                                          aclOpExecutor *executor, aclrtStream stream)
{
    return aclnnInnerMoeDistributeDispatchGmm(workspace, workspaceSize, executor, stream);
}

#ifdef __cplusplus
}
#endif
