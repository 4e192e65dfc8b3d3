"""pytest of MoeDistributeDispatchGmm: the rank is the module's LOCAL_RANK, read from the
environment the launcher sets."""
import os

import torch
import torch.multiprocessing as mp
import torch_npu

LOCAL_RANK = int(os.environ.get("LOCAL_RANK", "0"))


def check_op():
    torch_npu.npu.set_device(LOCAL_RANK)
    x = torch.randn(64, 32).npu()
    expert_ids = torch.randint(0, 8, (64,), dtype=torch.int32).npu()
    outs = torch.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
    y, expert_token_nums = outs
    assert y.shape == x.shape and int(expert_token_nums.sum().item()) == 64


def test_local_rank_global():
    p = mp.Process(target=check_op)
    p.start()
    p.join()
