"""pytest of MoeDistributeDispatchGmm: no rank anywhere in reach, but the script initialises
torch.distributed (in a helper)."""
import torch
import torch.multiprocessing as mp
import torch_npu


def setup(index):
    torch.distributed.init_process_group("hccl", rank=index, world_size=2)


def check():
    x = torch.randn(64, 32).npu()
    expert_ids = torch.randint(0, 8, (64,), dtype=torch.int32).npu()
    y, expert_token_nums = torch.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
    assert y.shape == x.shape


def worker(index):
    setup(index)
    check()


def test_dist_only():
    mp.spawn(worker, nprocs=2, join=True)
