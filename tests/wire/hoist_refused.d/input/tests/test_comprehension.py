"""The op called in a comprehension: once per element, not once before it."""
import torch
import torch.multiprocessing as mp
import torch_npu


def inputs():
    return (torch.randn(64, 32).npu(), torch.randint(0, 8, (64,), dtype=torch.int32).npu(),
            torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())


def worker(rank):
    torch_npu.npu.set_device(rank)
    ys = [torch.ops.npu.moe_distribute_dispatch_gmm(*t)[0] for t in (inputs(), inputs())]
    assert len(ys) == 2


def test_comprehension():
    mp.spawn(worker, nprocs=2, join=True)
