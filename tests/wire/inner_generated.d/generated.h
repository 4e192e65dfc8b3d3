// The aclnnInner API the build generates from this case's OpDef once wired (inputs, scale
// OPTIONAL; attributes group, ep_world_size, send_counts; outputs, profiling_data;
// workspaceSize, executor), as build_out/autogen/aclnn_moe_distribute_dispatch_gmm.h declares
// it; with AUTOTRACE_STUB_DEFINE a stand-in definition (stubs/build_example.sh).
#include "aclnn/acl_meta.h"
#include "inner_record.h"

extern "C" aclnnStatus aclnnInnerMoeDistributeDispatchGmmGetWorkspaceSize(
    const aclTensor *x, const aclTensor *expertIds, const aclTensor *weight1, const aclTensor *weight2,
    const aclTensor *scaleOptional, const char *group, int64_t epWorldSize, const aclIntArray *sendCounts,
    const aclTensor *y, const aclTensor *expertTokenNums, const aclTensor *profilingData,
    uint64_t *workspaceSize, aclOpExecutor **executor)
#ifdef AUTOTRACE_STUB_DEFINE
{
    return autotrace_stub_inner(profilingData, workspaceSize, executor);
}
#else
    ;
#endif
