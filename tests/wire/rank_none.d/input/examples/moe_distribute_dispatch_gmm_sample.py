"""The sample of MoeDistributeDispatchGmm, on one device: no rank in reach and no process group,
so wire cannot say which rank's dump this is (and no other sample saves: G4 fails)."""
import torch
import torch.multiprocessing as mp
import torch_npu


def check(tokens):
    x = torch.randn(tokens, 32).npu()
    expert_ids = torch.randint(0, 8, (tokens,), dtype=torch.int32).npu()
    y, expert_token_nums = torch.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
    assert y.shape == x.shape


def main():
    p = mp.Process(target=check, args=(64,))
    p.start()
    p.join()


if __name__ == "__main__":
    main()
