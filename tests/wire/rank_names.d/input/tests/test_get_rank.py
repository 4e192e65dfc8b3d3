"""pytest of MoeDistributeDispatchGmm: the process group is up; the rank comes from
dist.get_rank() into a variable of another name."""
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch_npu


def body(index, world):
    dist.init_process_group("hccl", rank=index, world_size=world)
    me = dist.get_rank()
    size = dist.get_world_size()
    torch_npu.npu.set_device(me)
    x = torch.randn(64, 32).npu()
    expert_ids = torch.randint(0, 8, (64,), dtype=torch.int32).npu()
    y, expert_token_nums = torch.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
    assert size == world and y.shape == x.shape


def test_get_rank():
    mp.spawn(body, args=(2,), nprocs=2, join=True)
