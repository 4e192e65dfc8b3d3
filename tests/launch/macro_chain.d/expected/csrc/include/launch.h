// The project's launch macros: RUN_KERNEL(kernel, blockDim, args...) on the default stream,
// through LAUNCH_ON_STREAM(kernel, blockDim, stream, args...).
#ifndef DEMO_LAUNCH_H
#define DEMO_LAUNCH_H

#include "acl/acl.h"

#define LAUNCH_ON_STREAM(kernel, dim, stream, ...) ACLRT_LAUNCH_KERNEL(kernel)(dim, stream, __VA_ARGS__)
#define RUN_KERNEL(kernel, dim, ...) LAUNCH_ON_STREAM(kernel, dim, nullptr, __VA_ARGS__)

#endif
