// acl/acl.h (a test stub) - ACLRT_LAUNCH_KERNEL(k)(blockDim, stream, args...) as the CANN
// toolchain generates it, aclrtlaunch_<k>(...), here run on the host simulation: each tensor
// argument becomes its GM address (launch_stub.h defines aclrtlaunch_<k> per kernel).
#ifndef AUTOTRACE_TEST_ACL_STUB_H
#define AUTOTRACE_TEST_ACL_STUB_H

#define ACLRT_LAUNCH_KERNEL(kernel) aclrtlaunch_##kernel

#endif
