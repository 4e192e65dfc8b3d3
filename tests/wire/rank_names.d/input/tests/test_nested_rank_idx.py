"""pytest of MoeDistributeDispatchGmm: the op runs in a closure; the rank is rank_idx of the
function around it."""
import torch
import torch.multiprocessing as mp
import torch_npu


def worker(rank_idx, world_size):
    torch_npu.npu.set_device(rank_idx)

    def once(tokens):
        x = torch.randn(tokens, 32).npu()
        expert_ids = torch.randint(0, 8, (tokens,), dtype=torch.int32).npu()
        y, expert_token_nums = torch.ops.npu.moe_distribute_dispatch_gmm(
            x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
        return y

    assert once(64).shape[0] == 64 and world_size == 2


def test_nested_rank_idx():
    mp.spawn(worker, args=(2,), nprocs=2, join=True)
