"""Sample of MoeDistributeDispatchGmm on N ranks: runs the operator on each rank, checks the result
against a torch reference and, with --profiling_dir, saves each rank's profiling_data
(rank000.pt, ...). With --point_map as well, the parent then runs `autotrace collect`.

    python3 moe_distribute_dispatch_gmm_sample.py --world_size 2 --profiling_dir prof
    python3 moe_distribute_dispatch_gmm_sample.py --sim --world_size 2 --profiling_dir prof

--sim runs the host-simulation build of compile_ascend_proj.sh --sim through the same spawn /
synchronize / save flow as an NPU run.
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import torch
import torch.multiprocessing as mp

HERE = Path(__file__).resolve().parent
OP_ROOT = HERE.parent
PROJ = OP_ROOT / "build_out" / "moe_distribute_dispatch_gmm_proj"


def import_save_helper():
    """autotrace's autotrace_save module: from $AUTOTRACE_PYTHON_DIR, $AUTOTRACE_DEVICE_DIR/python,
    the device dir the simulation build used, the source tree, or an installed autotrace."""
    candidates = [os.environ.get("AUTOTRACE_PYTHON_DIR")]
    device_dirs = [os.environ.get("AUTOTRACE_DEVICE_DIR")]
    recorded = PROJ / "autotrace_device_dir"
    if recorded.is_file():
        device_dirs.append(recorded.read_text().strip())
    device_dirs.append(str(OP_ROOT.parent.parent / "device"))
    autotrace = shutil.which("autotrace")
    if autotrace:
        device_dirs.append(str(Path(autotrace).resolve().parent.parent / "share" / "autotrace" / "device"))
    candidates += [os.path.join(d, "python") for d in device_dirs if d]
    for d in candidates:
        if d and os.path.isfile(os.path.join(d, "autotrace_save.py")):
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
    outs = ops.moe_distribute_dispatch_gmm(*[t.to(device) for t in inputs])
    if len(outs) == 3:
        y, expert_token_nums, profiling_data = outs
    else:
        (y, expert_token_nums), profiling_data = outs, None
    torch_npu.npu.synchronize()

    torch.testing.assert_close(y.cpu(), reference(*inputs), rtol=1e-4, atol=1e-4)
    counts = torch.bincount(inputs[1].long(), minlength=args.experts)
    assert torch.equal(expert_token_nums.cpu(), counts), "expert_token_nums differ"
    print("rank %d: y and expert_token_nums match the reference" % rank, flush=True)

    if args.profiling_dir:
        if profiling_data is None:
            raise SystemExit("rank %d: the operator returned no profiling_data" % rank)
        save_profiling_data = import_save_helper()
        path = save_profiling_data(profiling_data, rank, args.profiling_dir,
                                   base_h_path=args.base_h)
        print("rank %d: profiling data saved to %s" % (rank, path), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--world_size", type=int, default=2)
    p.add_argument("--tokens", type=int, default=64)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--inter", type=int, default=48)
    p.add_argument("--experts", type=int, default=8)
    p.add_argument("--profiling_dir", help="write rankNNN.pt here")
    p.add_argument("--base_h", help="the <op>_base.h the kernel was built from "
                   "(default: the build tree copy, else op_kernel/)")
    p.add_argument("--point_map", help="point_map.json of the same build: run autotrace collect")
    p.add_argument("--chrome_trace", help="trace to write (default PROFILING_DIR/chrome_trace.json)")
    p.add_argument("--sim", action="store_true", help="run the host-simulation build")
    p.add_argument("--sim_lib", default=str(PROJ / "lib" / "libmoe_distribute_dispatch_gmm_sim.so"))
    p.add_argument("--aic_num", type=int, default=4, help="cube cores of the simulated device")
    args = p.parse_args()

    if args.base_h is None:
        built = PROJ / "op_kernel" / "moe_distribute_dispatch_gmm_base.h"
        args.base_h = built if built.is_file() else OP_ROOT / "op_kernel" / "moe_distribute_dispatch_gmm_base.h"
    # G5: every path absolute before spawn; children may not share the parent's directory.
    for name in ("profiling_dir", "base_h", "point_map", "chrome_trace", "sim_lib"):
        if getattr(args, name):
            setattr(args, name, str(Path(getattr(args, name)).expanduser().resolve()))
    if args.sim and not os.path.isfile(args.sim_lib):
        raise SystemExit("%s not found: run compile_ascend_proj.sh --sim first" % args.sim_lib)

    mp.spawn(run, args=(args,), nprocs=args.world_size, join=True)

    if args.profiling_dir and args.point_map:
        chrome = args.chrome_trace or str(Path(args.profiling_dir) / "chrome_trace.json")
        autotrace = shutil.which("autotrace")
        if autotrace is None:
            raise SystemExit("autotrace not found on PATH: cannot write %s" % chrome)
        subprocess.run([autotrace, "collect", "--map", args.point_map, "-o", chrome,
                        args.profiling_dir], check=True)
        print("chrome trace: %s" % chrome)


if __name__ == "__main__":
    main()
