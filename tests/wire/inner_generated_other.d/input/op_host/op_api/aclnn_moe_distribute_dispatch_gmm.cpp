// Hand-written aclnn entry points of MoeDistributeDispatchGmm over the generated aclnnInner* API,
// which only the build declares (build_out/autogen/aclnn_moe_distribute_dispatch_gmm.h): the
// attributes are fixed here. Case: the call passes another tensor where the generated API takes the profiling output: a manual step, nothing guessed.
#include "aclnn_moe_distribute_dispatch_gmm.h"

#ifdef __cplusplus
extern "C" {
#endif

extern aclnnStatus aclnnInnerMoeDistributeDispatchGmm(void *workspace, uint64_t workspaceSize,
                                                       aclOpExecutor *executor, aclrtStream stream);

aclnnStatus aclnnMoeDistributeDispatchGmmGetWorkspaceSize(
    const aclTensor *x, const aclTensor *expertIds, const aclTensor *weight1, const aclTensorList *weight2,
    const aclTensor *scale, aclTensor *y, aclTensor *expertTokenNums,
    uint64_t *workspaceSize, aclOpExecutor **executor)
{
    const char *group = "hccl_world_group";
    int64_t epWorldSize = 8;
    aclIntArray *sendCounts = nullptr;
    aclTensor *yCopy = y;
    aclnnStatus ret = aclnnInnerMoeDistributeDispatchGmmGetWorkspaceSize(
        x,
        expertIds,
        weight1,
        weight2,
        scale,
        group,
        epWorldSize,
        sendCounts,
        y,
        expertTokenNums,
        yCopy,
        workspaceSize,
        executor);
    return ret;
}

aclnnStatus aclnnMoeDistributeDispatchGmm(void *workspace, uint64_t workspaceSize,
                                          aclOpExecutor *executor, aclrtStream stream)
{
    return aclnnInnerMoeDistributeDispatchGmm(workspace, workspaceSize, executor, stream);
}

#ifdef __cplusplus
}
#endif
