"""A test of MoeDistributeDispatchGmm that uses the op's first output inside a larger expression
spread over lines."""
import torch
import torch.multiprocessing as mp
import torch_npu


def worker(rank):
    torch_npu.npu.set_device(rank)
    x = torch.randn(64, 32).npu()
    expert_ids = torch.randint(0, 8, (64,), dtype=torch.int32).npu()
    weights = (torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
    y = (torch.ops.npu.moe_distribute_dispatch_gmm(x, expert_ids,
                                                  *weights)[0]
         .float().cpu())
    assert y.shape == (64, 32)


def test_hoist_expr():
    mp.spawn(worker, nprocs=2, join=True)
