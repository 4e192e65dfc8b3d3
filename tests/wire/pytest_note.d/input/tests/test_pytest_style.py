"""A pytest test of MoeDistributeDispatchGmm: its runner starts it (one process per rank, RANK
in the environment); the module has no __main__ block, no options and starts no ranks."""
import os

import torch
import torch_npu


def test_dispatch_gmm():
    rank = int(os.environ["RANK"])
    torch_npu.npu.set_device(rank)
    x = torch.randn(64, 32).npu()
    expert_ids = torch.randint(0, 8, (64,), dtype=torch.int32).npu()
    y, expert_token_nums = torch.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
    torch_npu.npu.synchronize()
    assert y.shape == x.shape
