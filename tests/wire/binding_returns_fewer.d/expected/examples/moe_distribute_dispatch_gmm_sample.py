"""Sample of MoeDistributeDispatchGmm on N ranks: runs the operator on each rank and checks the
result against a torch reference.

    python3 moe_distribute_dispatch_gmm_sample.py --world_size 2
    python3 moe_distribute_dispatch_gmm_sample.py --sim --world_size 2

--sim runs the host-simulation build of compile_ascend_proj.sh --sim through the same spawn /
synchronize flow as an NPU run.
"""

import argparse
import os
import sys
from pathlib import Path

import torch
import torch.multiprocessing as mp
import shutil
import subprocess

HERE = Path(__file__).resolve().parent
OP_ROOT = HERE.parent
PROJ = OP_ROOT / "build_out" / "moe_distribute_dispatch_gmm_proj"


def _autotrace_save_helper():
    """save_profiling_data of autotrace's device/python (added by autotrace wire): from
    $AUTOTRACE_PYTHON_DIR, $AUTOTRACE_DEVICE_DIR/python or the autotrace found on PATH."""
    import os
    import shutil
    import sys
    dirs = [os.environ.get("AUTOTRACE_PYTHON_DIR")]
    if os.environ.get("AUTOTRACE_DEVICE_DIR"):
        dirs.append(os.path.join(os.environ["AUTOTRACE_DEVICE_DIR"], "python"))
    exe = shutil.which("autotrace")
    if exe:
        top = os.path.dirname(os.path.realpath(exe))
        dirs += [os.path.join(top, "..", "share", "autotrace", "device", "python"),
                 os.path.join(top, "device", "python")]
    for d in dirs:
        if d and os.path.isfile(os.path.join(d, "autotrace_save.py")):
            if d not in sys.path:
                sys.path.insert(0, d)
            break
    from autotrace_save import save_profiling_data
    return save_profiling_data


def make_inputs(rank, tokens, hidden, inter, experts):
    g = torch.Generator().manual_seed(1234 + rank)
    x = torch.randn(tokens, hidden, generator=g)
    expert_ids = torch.randint(0, experts, (tokens,), generator=g, dtype=torch.int32)
    weight1 = torch.randn(experts, hidden, inter, generator=g) * 0.2
    weight2 = torch.randn(experts, inter, hidden, generator=g) * 0.2
    scale = torch.rand(experts, generator=g) + 0.5
    return x, expert_ids, weight1, weight2, scale


def reference(x, expert_ids, weight1, weight2, scale):
    y = torch.zeros_like(x)
    for e in range(weight1.shape[0]):
        rows = (expert_ids == e).nonzero().flatten()
        if rows.numel():
            act = torch.relu((x[rows] @ weight1[e]) * scale[e])
            y[rows] = act @ weight2[e]
    return y


def run(rank, args):
    if args.sim:
        sys.path.insert(0, str(HERE))
        import npu_sim as torch_npu
        ops = torch_npu.load_ops(args.sim_lib, aic_num=args.aic_num)
        device = "cpu"
    else:
        import torch_npu
        torch_npu.npu.set_device(rank)
        ops = torch.ops.npu
        device = "npu:%d" % rank
    inputs = make_inputs(rank, args.tokens, args.hidden, args.inter, args.experts)
    expert_token_nums = torch.zeros(args.experts, dtype=torch.int64, device=device)
    y, profiling_data = ops.moe_distribute_dispatch_gmm(*[t.to(device) for t in inputs], expert_token_nums)
    torch_npu.npu.synchronize()
    # autotrace wire (G4): save the profiling output once the device has synchronized
    if args.profiling_dir:
        if profiling_data is None:
            raise SystemExit("rank %d: the operator returned no profiling_data" % rank)
        save_profiling_data = _autotrace_save_helper()
        save_profiling_data(profiling_data, rank, args.profiling_dir, base_h_path=str(Path(__file__).resolve().parent / "../op_kernel/moe_distribute_dispatch_gmm_base.h"))

    torch.testing.assert_close(y.cpu(), reference(*inputs), rtol=1e-4, atol=1e-4)
    counts = torch.bincount(inputs[1].long(), minlength=args.experts)
    assert torch.equal(expert_token_nums.cpu(), counts), "expert_token_nums differ"
    print("rank %d: y and expert_token_nums match the reference" % rank, flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--world_size", type=int, default=2)
    p.add_argument("--tokens", type=int, default=64)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--inter", type=int, default=48)
    p.add_argument("--experts", type=int, default=8)
    p.add_argument("--sim", action="store_true", help="run the host-simulation build")
    p.add_argument("--sim_lib", default=str(PROJ / "lib" / "libmoe_distribute_dispatch_gmm_sim.so"))
    p.add_argument("--aic_num", type=int, default=4, help="cube cores of the simulated device")
    p.add_argument("--profiling_dir", help="write the profiling dumps (rankNNN.pt) here")
    p.add_argument("--point_map", help="point_map.json of the same build: run autotrace collect after the ranks")
    p.add_argument("--chrome_trace", help="the trace to write (default PROFILING_DIR/chrome_trace.json)")
    args = p.parse_args()
    # autotrace wire (G5): the profiling paths absolute before the ranks are spawned
    for _name in ("profiling_dir", "point_map", "chrome_trace"):
        if getattr(args, _name, None):
            setattr(args, _name, str(Path(getattr(args, _name)).expanduser().resolve()))

    args.sim_lib = str(Path(args.sim_lib).expanduser().resolve())
    if args.sim and not os.path.isfile(args.sim_lib):
        raise SystemExit("%s not found: run compile_ascend_proj.sh --sim first" % args.sim_lib)

    mp.spawn(run, args=(args,), nprocs=args.world_size, join=True)

    # autotrace wire (G4): the trace, once every rank has saved its dump
    if args.profiling_dir and args.point_map:
        chrome_trace = args.chrome_trace or str(Path(args.profiling_dir) / "chrome_trace.json")
        subprocess.run([shutil.which("autotrace") or "autotrace", "collect", "--map", args.point_map,
                        "-o", chrome_trace, args.profiling_dir], check=True)
        print("chrome trace: %s" % chrome_trace)


if __name__ == "__main__":
    main()
