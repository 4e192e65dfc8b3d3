import argparse

import torch
import torch.multiprocessing as mp
import torch_npu
import shutil
import subprocess
from pathlib import Path


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


def run(rank, args):
    torch_npu.npu.set_device(rank)
    x = torch.arange(16, dtype=torch.float32, device="npu")
    y = torch.empty(16, device="npu")
    profiling_data = torch.ops.npu.vcopy(x, y)
    torch_npu.npu.synchronize()  # autotrace wire: the profiling tensor is written when the kernel ends
    # autotrace wire (G4): save the profiling output once the device has synchronized
    if args.profiling_dir:
        if profiling_data is None:
            raise SystemExit("rank %d: the operator returned no profiling_data" % rank)
        save_profiling_data = _autotrace_save_helper()
        save_profiling_data(profiling_data, rank, args.profiling_dir, base_h_path=str(Path(__file__).resolve().parent / "../csrc/vcopy/op_kernel/vcopy_kernel_base.h"))
    assert torch.equal(x.cpu(), y.cpu())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--world_size", type=int, default=2)
    parser.add_argument("--profiling_dir", help="write the profiling dumps (rankNNN.pt) here")
    parser.add_argument("--point_map", help="point_map.json of the same build: run autotrace collect after the ranks")
    parser.add_argument("--chrome_trace", help="the trace to write (default PROFILING_DIR/chrome_trace.json)")
    args = parser.parse_args()
    # autotrace wire (G5): the profiling paths absolute before the ranks are spawned
    for _name in ("profiling_dir", "point_map", "chrome_trace"):
        if getattr(args, _name, None):
            setattr(args, _name, str(Path(getattr(args, _name)).expanduser().resolve()))
    mp.spawn(run, args=(args,), nprocs=args.world_size)

    # autotrace wire (G4): the trace, once every rank has saved its dump
    if args.profiling_dir and args.point_map:
        chrome_trace = args.chrome_trace or str(Path(args.profiling_dir) / "chrome_trace.json")
        subprocess.run([shutil.which("autotrace") or "autotrace", "collect", "--map", args.point_map,
                        "-o", chrome_trace, args.profiling_dir], check=True)
        print("chrome trace: %s" % chrome_trace)


if __name__ == "__main__":
    main()
