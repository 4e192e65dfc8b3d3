"""A test of MoeDistributeDispatchGmm that imports torch alone: the NPU backend is loaded by
whoever registered the op, and this module never names its package."""
import torch
import torch.multiprocessing as mp
import os
from pathlib import Path


# autotrace wire (G4, G5): the profiling of the operator, switched on by the environment:
#   AUTOTRACE_PROFILING_DIR  where each rank saves its dump (rankNNN.pt)
#   AUTOTRACE_POINT_MAP      point_map.json of the same build: the trace is collected after the ranks
#   AUTOTRACE_CHROME_TRACE   the trace to write (default AUTOTRACE_PROFILING_DIR/chrome_trace.json)
# (run as a script, --profiling_dir, --point_map and --chrome_trace set them).
AUTOTRACE_PROFILING_NUMEL = 128 * 3 * 2048  # MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE


def _autotrace_path(name):
    """The path in environment variable `name`, absolute, or None (added by autotrace wire)."""
    import os
    from pathlib import Path
    value = os.environ.get(name)
    return str(Path(value).expanduser().resolve()) if value else None


def _autotrace_absolute_paths():
    """Makes the profiling paths of the environment absolute, for the ranks to inherit (G5)."""
    import os
    for name in ("AUTOTRACE_PROFILING_DIR", "AUTOTRACE_POINT_MAP", "AUTOTRACE_CHROME_TRACE"):
        if os.environ.get(name):
            os.environ[name] = _autotrace_path(name)


def _autotrace_collect():
    """autotrace collect over the ranks' dumps, once every rank has saved its own (G4)."""
    import shutil
    import subprocess
    from pathlib import Path
    profiling_dir, point_map = _autotrace_path("AUTOTRACE_PROFILING_DIR"), _autotrace_path("AUTOTRACE_POINT_MAP")
    if profiling_dir and point_map:
        chrome_trace = _autotrace_path("AUTOTRACE_CHROME_TRACE") or str(Path(profiling_dir) / "chrome_trace.json")
        subprocess.run([shutil.which("autotrace") or "autotrace", "collect", "--map", point_map,
                        "-o", chrome_trace, profiling_dir], check=True)
        print("chrome trace: %s" % chrome_trace)


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


def worker(rank):
    torch.npu.set_device(rank)
    x = torch.randn(64, 32).npu()
    expert_ids = torch.randint(0, 8, (64,), dtype=torch.int32).npu()
    outs = torch.ops.npu.moe_distribute_dispatch_gmm(
        x, expert_ids, torch.randn(8, 32, 48).npu(), torch.randn(8, 48, 32).npu(), torch.rand(8).npu())
    if len(outs) == 3:  # autotrace wire: 'profiling_data' comes last
        y, expert_token_nums, profiling_data = outs
    else:
        (y, expert_token_nums), profiling_data = outs, None
    torch.npu.synchronize()  # autotrace wire: the profiling tensor is written when the kernel ends
    # autotrace wire (G4): save the profiling output once the device has synchronized
    if _autotrace_path("AUTOTRACE_PROFILING_DIR"):
        if profiling_data is None:
            raise SystemExit("rank %d: the operator returned no profiling_data" % rank)
        save_profiling_data = _autotrace_save_helper()
        save_profiling_data(profiling_data, rank, _autotrace_path("AUTOTRACE_PROFILING_DIR"), base_h_path=str(Path(__file__).resolve().parent / "../op_kernel/moe_distribute_dispatch_gmm_base.h"))
    assert y.shape == x.shape


def test_torch_only():
    _autotrace_absolute_paths()  # autotrace wire (G5): absolute before the ranks start
    mp.spawn(worker, nprocs=2, join=True)
    _autotrace_collect()  # autotrace wire (G4): the trace, once every rank has saved its dump


if __name__ == "__main__":
    # autotrace wire: python3 test_torch_only.py --profiling_dir DIR [--point_map MAP] [--chrome_trace FILE]
    import argparse
    _parser = argparse.ArgumentParser()
    _parser.add_argument("--profiling_dir", help="write the profiling dumps (rankNNN.pt) here")
    _parser.add_argument("--point_map", help="point_map.json of the same build: collect the trace after the ranks")
    _parser.add_argument("--chrome_trace", help="the trace to write (default PROFILING_DIR/chrome_trace.json)")
    _args = _parser.parse_args()
    for _name in ("profiling_dir", "point_map", "chrome_trace"):
        if getattr(_args, _name, None):
            setattr(_args, _name, str(Path(getattr(_args, _name)).expanduser().resolve()))
            os.environ["AUTOTRACE_" + _name.upper()] = getattr(_args, _name)
    test_torch_only()
