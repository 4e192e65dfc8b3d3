// The project's launch helper: EXEC_KERNEL_CMD(kernel, blockDim, args...) runs the kernel on the
// current stream with the arguments as given (tensors become their device addresses).
#ifndef VADD_TORCH_HELPER_H
#define VADD_TORCH_HELPER_H

#include <ATen/ATen.h>
#include <torch/library.h>

#include "acl/acl.h"

#define HOST_API __attribute__((visibility("default")))

#define EXEC_KERNEL_CMD(kernel_name, blockdim, ...)                              \
    do {                                                                         \
        void *acl_stream = nullptr;                                              \
        ACLRT_LAUNCH_KERNEL(kernel_name)(blockdim, acl_stream, __VA_ARGS__);     \
    } while (false)

#endif
