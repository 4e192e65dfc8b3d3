// A stand-in of CANN's hccl/hccl_types.h for tests/wire: nothing the aclnn sources compiled here use.
