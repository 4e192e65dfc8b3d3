// A stand-in of CANN's aclnn/acl_meta.h for tests/wire: the opaque types of the aclnn API. A
// stub aclTensor carries the id of the at::Tensor it stands for (pytorch_npu_helper.hpp makes
// them), so that the stand-in of the generated aclnnInner API can say which tensor it got.
#ifndef AUTOTRACE_STUB_ACL_META_H
#define AUTOTRACE_STUB_ACL_META_H

#include <cstdint>

typedef int aclnnStatus;
struct aclTensor {
	int id;
	int64_t numel;
	int type;
};
struct aclTensorList {
	int id;
};
struct aclIntArray;
struct aclFloatArray;
struct aclBoolArray;
struct aclOpExecutor;
typedef void *aclrtStream;

#endif
