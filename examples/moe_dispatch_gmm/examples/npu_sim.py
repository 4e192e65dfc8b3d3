"""npu_sim - the torch_npu pieces the sample uses, for the host simulation (--sim).

`npu` stands in for torch_npu.npu (set_device, synchronize: the simulated launch is synchronous);
`load_ops(lib)` returns an object whose moe_distribute_dispatch_gmm(...) behaves like the pybind op
(same arguments, same (y, expert_token_nums, profiling_data) result) but runs the kernel built by
`compile_ascend_proj.sh --sim` on simulated cores (lib/libmoe_distribute_dispatch_gmm_sim.so).
"""

import ctypes

import torch

MAX_INFER_GETBLOCKNUM_UB = 128
MIX_AIC_1_2_SLOTS_PER_GROUP = 3
PROF_SIZE_PER_CORE = 2048


class _Npu:
    def set_device(self, index):
        self.index = index

    def synchronize(self):
        pass


npu = _Npu()


class _Ops:
    def __init__(self, lib_path, aic_num):
        self._lib = ctypes.CDLL(str(lib_path))
        self._run = self._lib.aclnn_sim_moe_distribute_dispatch_gmm
        self._run.restype = ctypes.c_int
        self._run.argtypes = [ctypes.c_void_p] * 8 + [ctypes.c_int64] + [ctypes.c_uint32] * 5
        self.aic_num = aic_num

    def moe_distribute_dispatch_gmm(self, x, expert_ids, weight1, weight2, scale):
        x, expert_ids, weight1, weight2, scale = (
            t.contiguous() for t in (x, expert_ids, weight1, weight2, scale))
        tokens, hidden = x.shape
        experts, _, inter = weight1.shape
        y = torch.zeros_like(x)
        expert_token_nums = torch.zeros(experts, dtype=torch.int64)
        profiling_data = torch.zeros(
            MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE,
            dtype=torch.int64)
        rc = self._run(x.data_ptr(), expert_ids.data_ptr(), weight1.data_ptr(),
                       weight2.data_ptr(), scale.data_ptr(), y.data_ptr(),
                       expert_token_nums.data_ptr(), profiling_data.data_ptr(),
                       profiling_data.numel(), tokens, hidden, inter, experts, self.aic_num)
        if rc != 0:
            raise RuntimeError("simulated aclnnMoeDistributeDispatchGmm failed: %d" % rc)
        return y, expert_token_nums, profiling_data


def load_ops(lib_path, aic_num=4):
    return _Ops(lib_path, aic_num)
