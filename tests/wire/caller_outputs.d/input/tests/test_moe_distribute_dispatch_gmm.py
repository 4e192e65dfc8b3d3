"""pytest of MoeDistributeDispatchGmm on 2 ranks, in the form of a project's e2e tests: a class
whose method runs the op with the outputs it allocates, workers started by multiprocessing."""
import random

import torch
import torch.multiprocessing as mp
import torch_npu


class TestMoeDistributeDispatchGmm:
    def __init__(self, rank, world_size):
        self.rank = rank
        self.world_size = world_size

    def run(self) -> bool:
        torch_npu.npu.set_device(self.rank)
        x = torch.randn(64, 32).npu()
        expert_ids = torch.randint(0, 8, (64,), dtype=torch.int32).npu()
        weight1 = torch.randn(8, 32, 48).npu()
        weight2 = torch.randn(8, 48, 32).npu()
        scale = torch.rand(8).npu()
        y = torch.empty_like(x)
        expert_token_nums = torch.zeros(8, dtype=torch.int64).npu()
        torch.ops.npu.moe_distribute_dispatch_gmm(
            x=x,
            expert_ids=expert_ids,
            weight1=weight1,
            weight2=weight2,
            scale=scale,
            y=y,
            expert_token_nums=expert_token_nums,
        )
        return bool(expert_token_nums.sum().item() == 64)


def worker(rank: int, world_size: int, q: mp.SimpleQueue):
    q.put(TestMoeDistributeDispatchGmm(rank, world_size).run())


def test_moe_distribute_dispatch_gmm():
    world_size = 2
    mp.set_start_method("fork", force=True)
    q = mp.SimpleQueue()
    p_list = []
    for rank in range(world_size):
        p = mp.Process(target=worker, args=(rank, world_size, q))
        p.start()
        p_list.append(p)
    results = [q.get() for _ in range(world_size)]
    for p in p_list:
        p.join()
    assert all(results) and random.random() >= 0
