"""A test of MoeDistributeDispatchGmm whose helper returns the op's outputs straight from the call."""
import torch
import torch.multiprocessing as mp
import torch_npu


def dispatch(rank, x, expert_ids):
    torch_npu.npu.set_device(rank)
    return torch.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())


def worker(rank):
    x = torch.randn(64, 32).npu()
    expert_ids = torch.randint(0, 8, (64,), dtype=torch.int32).npu()
    y, expert_token_nums = dispatch(rank, x, expert_ids)
    assert y.shape == x.shape


def test_hoist_return():
    mp.spawn(worker, nprocs=2, join=True)
