// A stand-in of torch_npu's pytorch_npu_helper.hpp for tests/wire: EXEC_NPU_CMD(aclnnFoo, args...)
// calls aclnnFooGetWorkspaceSize(args..., &workspaceSize, &executor) directly, each tensor
// argument converted to an aclTensor (or aclTensorList) carrying its id, other arguments as they
// are. So a wired binding, the hand-written aclnn API and the (stand-in) generated aclnnInner API
// are compiled against each other: one argument per parameter, in order.
#ifndef AUTOTRACE_STUB_PYTORCH_NPU_HELPER_HPP
#define AUTOTRACE_STUB_PYTORCH_NPU_HELPER_HPP

#include <torch/extension.h>

#include "aclnn/acl_meta.h"

struct autotrace_stub_arg {
	aclTensor *t;
	operator aclTensor *() const { return t; }
	operator aclTensorList *() const { return reinterpret_cast<aclTensorList *>(t); }
};

inline autotrace_stub_arg autotrace_stub_convert(const at::Tensor &x)
{
	if (!x.defined())
		return { nullptr };
	return { new aclTensor{ x.id, x.numel(), (int)x.type } };
}

inline autotrace_stub_arg autotrace_stub_convert(const c10::optional<at::Tensor> &x)
{
	return x ? autotrace_stub_convert(*x) : autotrace_stub_arg{ nullptr };
}

template <class T> inline const T &autotrace_stub_convert(const T &x) { return x; }

template <class F, class... A> inline void autotrace_stub_exec(F fn, const A &...a)
{
	uint64_t workspace = 0;
	aclOpExecutor *executor = nullptr;
	TORCH_CHECK(fn(autotrace_stub_convert(a)..., &workspace, &executor) == 0, "the aclnn API succeeds");
}

#define EXEC_NPU_CMD(api, ...) autotrace_stub_exec(api##GetWorkspaceSize, __VA_ARGS__)

#endif
