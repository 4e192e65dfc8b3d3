// The generated aclnnInner API of the example operator (two outputs and profiling_data, no
// attributes) as the example's hand-written aclnn source declares it once wired; with
// AUTOTRACE_STUB_DEFINE, a stand-in definition that records the profiling tensor it is given.
// build_example.sh includes it in the aclnn source (a conflicting declaration fails there) and
// defines it in a unit of its own. A case with a generated.h of its own uses that instead.
#include "aclnn/acl_meta.h"
#include "inner_record.h"

extern "C" aclnnStatus aclnnInnerMoeDistributeDispatchGmmGetWorkspaceSize(
    const aclTensor *x, const aclTensor *expertIds, const aclTensor *weight1, const aclTensor *weight2,
    const aclTensor *scale, aclTensor *y, aclTensor *expertTokenNums, aclTensor *profilingData,
    uint64_t *workspaceSize, aclOpExecutor **executor)
#ifdef AUTOTRACE_STUB_DEFINE
{
    return autotrace_stub_inner(profilingData, workspaceSize, executor);
}
#else
    ;
#endif
