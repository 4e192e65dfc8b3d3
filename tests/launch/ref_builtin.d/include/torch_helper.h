// torch_helper.h (ref_builtin.d's build): what the package's helper header gives the host
// sources, EXEC_KERNEL_CMD(kernel, blockDim, args...) on the current stream.
#ifndef REF_BUILTIN_TORCH_HELPER_H
#define REF_BUILTIN_TORCH_HELPER_H

#include <ATen/ATen.h>

#include "acl/acl.h"

#define EXEC_KERNEL_CMD(kernel_name, blockdim, ...) ACLRT_LAUNCH_KERNEL(kernel_name)(blockdim, nullptr, __VA_ARGS__)

#endif
