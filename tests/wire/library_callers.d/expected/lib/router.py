"""A library module of the project that calls the op (no sample: it does
not run it, it routes tokens for a model)."""
import torch


def route(x, expert_ids, weight1, weight2, scale):
    y, expert_token_nums, _ = torch.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, weight1, weight2, scale)
    return y, expert_token_nums


def route_kept(x, expert_ids, weight1, weight2, scale):
    outs = torch.ops.npu.moe_distribute_dispatch_gmm(x, expert_ids, weight1, weight2, scale)
    return outs[0]


def route_counts(x, expert_ids, weight1, weight2, scale):
    _, counts, _ = torch.ops.npu.moe_distribute_dispatch_gmm(x, expert_ids, weight1, weight2, scale)
    return counts
