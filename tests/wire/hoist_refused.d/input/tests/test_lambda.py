"""The op called inside a lambda: taking it out would run it where the lambda is made."""
import torch
import torch.multiprocessing as mp
import torch_npu


def inputs():
    return (torch.randn(64, 32).npu(), torch.randint(0, 8, (64,), dtype=torch.int32).npu(),
            torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())


def worker(rank):
    torch_npu.npu.set_device(rank)
    run = lambda t: torch.ops.npu.moe_distribute_dispatch_gmm(*t)
    y, expert_token_nums = run(inputs())
    assert y.shape == (64, 32)


def test_lambda():
    mp.spawn(worker, nprocs=2, join=True)
