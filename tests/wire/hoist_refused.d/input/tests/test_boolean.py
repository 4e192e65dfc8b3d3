"""The op called on the right of `and` / `or`: it runs only when the left side lets it."""
import torch
import torch.multiprocessing as mp
import torch_npu


def inputs():
    return (torch.randn(64, 32).npu(), torch.randint(0, 8, (64,), dtype=torch.int32).npu(),
            torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())


def worker(rank, dry_run=False):
    torch_npu.npu.set_device(rank)
    outs = dry_run and None or torch.ops.npu.moe_distribute_dispatch_gmm(*inputs())
    assert outs is None or outs[0].shape == (64, 32)


def test_boolean():
    mp.spawn(worker, nprocs=2, join=True)
