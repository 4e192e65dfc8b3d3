// What the stand-in of a generated aclnnInner*GetWorkspaceSize records: the profiling tensor it
// was given (its id and size), for main_example.cpp to compare with what the binding returns.
#ifndef AUTOTRACE_STUB_INNER_RECORD_H
#define AUTOTRACE_STUB_INNER_RECORD_H

#include "aclnn/acl_meta.h"

extern "C" {
extern int autotrace_stub_prof_id;
extern int64_t autotrace_stub_prof_numel;
aclnnStatus autotrace_stub_inner(const aclTensor *profiling, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnInnerMoeDistributeDispatchGmm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);
}

#endif
