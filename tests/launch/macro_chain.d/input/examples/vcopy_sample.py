import argparse

import torch
import torch.multiprocessing as mp
import torch_npu


def run(rank, args):
    torch_npu.npu.set_device(rank)
    x = torch.arange(16, dtype=torch.float32, device="npu")
    y = torch.empty(16, device="npu")
    torch.ops.npu.vcopy(x, y)
    assert torch.equal(x.cpu(), y.cpu())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--world_size", type=int, default=2)
    args = parser.parse_args()
    mp.spawn(run, args=(args,), nprocs=args.world_size)


if __name__ == "__main__":
    main()
