"""Fake implementations of the operators, for torch.compile (FakeTensor)."""
import torch


@torch.library.register_fake("npu::moe_distribute_dispatch_gmm")
def moe_distribute_dispatch_gmm_fake(x, expert_ids, weight1, weight2, scale):
    y = torch.empty_like(x)
    expert_token_nums = x.new_empty((weight1.shape[0],), dtype=torch.int64)
    return y, expert_token_nums, torch.empty(128 * 3 * 2048, dtype=torch.int64, device=x.device)
