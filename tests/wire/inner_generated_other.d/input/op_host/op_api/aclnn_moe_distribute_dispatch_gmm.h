// Hand-written aclnn API of MoeDistributeDispatchGmm (pregen): forwards to the generated
// aclnnInner* functions.
#ifndef ACLNN_MOE_DISTRIBUTE_DISPATCH_GMM_H
#define ACLNN_MOE_DISTRIBUTE_DISPATCH_GMM_H

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnMoeDistributeDispatchGmmGetWorkspaceSize(
    const aclTensor *x, const aclTensor *expertIds, const aclTensor *weight1, const aclTensorList *weight2,
    const aclTensor *scale, aclTensor *y, aclTensor *expertTokenNums,
    uint64_t *workspaceSize, aclOpExecutor **executor);

__attribute__((visibility("default"))) aclnnStatus aclnnMoeDistributeDispatchGmm(
    void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
