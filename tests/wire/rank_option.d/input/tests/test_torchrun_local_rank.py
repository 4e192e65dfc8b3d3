"""MoeDistributeDispatchGmm on every rank torchrun starts: the launcher passes --local_rank.

    torchrun --nproc_per_node 2 test_torchrun_local_rank.py
"""
import argparse

import torch
import torch.distributed
import torch_npu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--local-rank", "--local_rank", dest="local_rank", type=int, default=0)
    parser.add_argument("--tokens", type=int, default=64)
    args = parser.parse_args()
    torch_npu.npu.set_device(args.local_rank)
    x = torch.randn(args.tokens, 32).npu()
    expert_ids = torch.randint(0, 8, (args.tokens,), dtype=torch.int32).npu()
    y, expert_token_nums = torch.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
    assert int(expert_token_nums.sum().item()) == args.tokens


if __name__ == "__main__":
    main()
