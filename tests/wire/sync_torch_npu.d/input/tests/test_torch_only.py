"""A test of MoeDistributeDispatchGmm that imports torch alone: the NPU backend is loaded by
whoever registered the op, and this module never names its package."""
import torch
import torch.multiprocessing as mp


def worker(rank):
    torch.npu.set_device(rank)
    x = torch.randn(64, 32).npu()
    expert_ids = torch.randint(0, 8, (64,), dtype=torch.int32).npu()
    y, expert_token_nums = torch.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
    assert y.shape == x.shape


def test_torch_only():
    mp.spawn(worker, nprocs=2, join=True)
