"""A sample of MoeDistributeDispatchGmm that imports torch as th: the name torch is bound
nowhere, so wire cannot write torch.npu.synchronize() here."""
import torch as th
import torch.multiprocessing as mp


def worker(rank):
    th.npu.set_device(rank)
    x = th.randn(64, 32).npu()
    expert_ids = th.randint(0, 8, (64,), dtype=th.int32).npu()
    y, expert_token_nums = th.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, th.randn(8, 32, 48).npu(), th.randn(8, 48, 32).npu(), th.rand(8).npu())
    assert y.shape == x.shape


def test_torch_as():
    mp.spawn(worker, nprocs=2, join=True)
