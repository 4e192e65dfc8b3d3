// A stand-in of CANN's hccl/hccl.h for tests/wire: nothing the aclnn sources compiled here use.
