"""pytest of MoeDistributeDispatchGmm: the rank is the case's global_rank_id attribute (its
local_rank_id is the device), the world size ep_world_size."""
import torch
import torch.multiprocessing as mp
import torch_npu


class DispatchGmmCase:
    def __init__(self, global_rank_id, local_rank_id, ep_world_size):
        self.global_rank_id = global_rank_id
        self.local_rank_id = local_rank_id
        self.ep_world_size = ep_world_size

    def run(self):
        torch_npu.npu.set_device(self.local_rank_id)
        x = torch.randn(64, 32).npu()
        expert_ids = torch.randint(0, 8, (64,), dtype=torch.int32).npu()
        y, expert_token_nums = torch.ops.npu.moe_distribute_dispatch_gmm(
            x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
        return int(expert_token_nums.sum().item())


def worker(index, world):
    assert DispatchGmmCase(index, index % 8, world).run() == 64


def test_global_rank_id():
    mp.spawn(worker, args=(2,), nprocs=2, join=True)
