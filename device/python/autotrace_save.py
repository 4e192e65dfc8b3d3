"""autotrace_save - save an operator's profiling_data for the autotrace collector.

Used by sample scripts after the device is synchronised::

    from autotrace_save import save_profiling_data
    torch_npu.npu.synchronize()
    save_profiling_data(profiling_data, rank_id, "prof_out", base_h_path="op_kernel/x_base.h")

``save_profiling_data(profiling, rank_id, output_dir, base_h_path=None)`` is call-compatible
with the field's ``trace_utils.save_profiling_data``, with these differences:

* A relative ``output_dir`` (and ``base_h_path``) is resolved against the CALLER'S current working
  directory at the time of the call, not against this module's folder. Samples should still
  resolve paths before ``multiprocessing.spawn`` (gate G5): a child may change directory.
* A configuration that cannot record raises ``ProfilingConfigError`` instead of saving nothing:
  ``ENABLE_MOE_PROFILING`` is 0 in the base header, the header cannot be read, or it does not
  define ``ENABLE_MOE_PROFILING`` at all (not the operator's base header).
* A torch tensor, or a list/tuple of tensors, is written as ``rankNNN.pt`` with ``torch.save``:
  a list of int64 CPU tensors, one per core group. A flat tensor is cut into slots of
  ``PROF_SIZE_PER_CORE`` words and grouped as [AIC slots (B, S), AIV slots (2B, S)] when the
  block count B is known (``num_blocks=``, or read from moe-v2 slot headers, or from the last
  used moe-v1 slot); otherwise as one group of all slots.
* Anything else that exposes the buffer protocol (``array.array('q')``, ``bytes``, a numpy
  array, ...) or a list of ints is written as ``rankNNN.npy`` (int64, shape (slots, S)) without
  needing numpy. Raw bytes are read as native-endian int64 words.
* It returns the path written, writes atomically (temporary file + rename), and warns when the
  data holds no trace record at all (a kernel with no points, or a dump from an unsynchronised
  device).

``python3 autotrace_save.py summary FILE`` prints what each slot of a saved dump holds.
The slot layouts (moe-v1, moe-v2) are described in LAYOUT.md next to the runtime header.
"""

import array
import os
import re
import struct
import sys
import tempfile
import warnings
from pathlib import Path

__all__ = [
    "ProfilingConfigError",
    "ProfilingConfig",
    "read_profiling_config",
    "save_profiling_data",
    "describe_slots",
    "DEFAULT_PROF_SIZE_PER_CORE",
]

DEFAULT_PROF_SIZE_PER_CORE = 2048
MOE_V2_MAGIC = 0x4D4F4554
CORE_TYPES = {1: "AIC", 2: "AIV"}


class ProfilingConfigError(RuntimeError):
    """The profiling configuration cannot produce a dump (disabled, unreadable, inconsistent)."""


class ProfilingConfig:
    """What the operator's base header says about profiling."""

    def __init__(self, path, enabled, prof_size_per_core, layout):
        self.path = path
        self.enabled = enabled
        self.prof_size_per_core = prof_size_per_core
        self.layout = layout

    def __repr__(self):
        return "ProfilingConfig(path=%r, enabled=%r, prof_size_per_core=%r, layout=%r)" % (
            str(self.path), self.enabled, self.prof_size_per_core, self.layout)


_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def _define(text, name):
    m = re.search(r"^[ \t]*#[ \t]*define[ \t]+%s[ \t]+([^\s]+)" % name, text, re.M)
    if m is None:
        return None
    value = m.group(1).strip("()")
    try:
        return int(value, 0)
    except ValueError:
        return value


def read_profiling_config(base_h_path):
    """Read ENABLE_MOE_PROFILING, PROF_SIZE_PER_CORE and MOE_PROFILING_LAYOUT from a base header.

    The first ``#define`` of each name outside comments counts (the runtime's own fallback
    definitions come after the operator's). Raises ProfilingConfigError when the header cannot be
    read or does not define ENABLE_MOE_PROFILING.
    """
    path = Path(os.fspath(base_h_path)).expanduser()
    if not path.is_absolute():
        path = Path.cwd() / path
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise ProfilingConfigError(
            "cannot read the operator base header %s (%s); pass base_h_path= the <op>_base.h "
            "that defines ENABLE_MOE_PROFILING" % (path, e.strerror or e)) from None
    text = _COMMENT_RE.sub("", text)
    enabled = _define(text, "ENABLE_MOE_PROFILING")
    if enabled is None:
        raise ProfilingConfigError(
            "%s does not define ENABLE_MOE_PROFILING: not an operator base header with the "
            "profiling runtime (run `autotrace wire` first?)" % path)
    if not isinstance(enabled, int):
        raise ProfilingConfigError(
            "%s: ENABLE_MOE_PROFILING is %r, expected 0 or 1" % (path, enabled))
    size = _define(text, "PROF_SIZE_PER_CORE")
    if size is None:
        size = DEFAULT_PROF_SIZE_PER_CORE
    if not isinstance(size, int) or size < 16 or size % 8:
        raise ProfilingConfigError(
            "%s: PROF_SIZE_PER_CORE is %r, expected a multiple of 8, at least 16" % (path, size))
    layout = _define(text, "MOE_PROFILING_LAYOUT")
    if layout is not None and layout not in (1, 2):
        layout = None
    return ProfilingConfig(path, bool(enabled), size, layout)


def describe_slots(words, size):
    """Decode slot headers of a flat int64 sequence: a list of dicts, one per slot.

    Keys: slot, layout ('v1', 'v2' or None for an unused/unrecognised slot), records, dropped
    (None for v1), core ('AIC'/'AIV'/None), block, sub_block, block_num, stamp.
    """
    return _describe_headers([words[s * size:s * size + 8] for s in range(len(words) // size)],
                             size)


def _describe_headers(headers, size):
    slots = []
    for s, h in enumerate(headers):
        w0 = h[0]
        d = {"slot": s, "layout": None, "records": 0, "dropped": None, "core": None,
             "block": None, "sub_block": None, "block_num": None, "stamp": None}
        if ((w0 >> 32) & 0xFFFFFFFF) == MOE_V2_MAGIC and (w0 & 0xFFFF) == 2:
            d.update(layout="v2", core=CORE_TYPES.get(h[1] & 0xFF), block=h[2], sub_block=h[3],
                     records=h[4], dropped=h[5], stamp=h[6] & 0xFFFFFFFFFFFFFFFF,
                     block_num=(h[1] >> 16) & 0xFFFF)
        elif 1 <= w0 <= size // 2:
            d.update(layout="v1", records=w0 - 1)
        slots.append(d)
    return slots


def _infer_block_num(slots):
    for d in slots:
        if d["layout"] == "v2":
            return d["block_num"] or None
    used = [d["slot"] for d in slots if d["layout"] == "v1"]
    if used and (used[-1] + 1) % 3 == 0:
        return (used[-1] + 1) // 3
    return None


def _is_torch_tensor(obj):
    return type(obj).__module__.split(".")[0] == "torch" and hasattr(obj, "detach")


def _resolve_dir(output_dir):
    out = Path(os.fspath(output_dir)).expanduser()
    if not out.is_absolute():
        out = Path.cwd() / out
    return out.resolve()


def _atomic_write(path, write):
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, str(path))
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _buffer_words(obj):
    if isinstance(obj, (list, tuple)):
        try:
            return array.array("q", obj)
        except (TypeError, OverflowError) as e:
            raise TypeError("profiling list must hold int64 values: %s" % e) from None
    try:
        view = memoryview(obj)
    except TypeError:
        raise TypeError(
            "profiling must be a torch tensor, a list of tensors, a list of ints or an object "
            "with the buffer protocol, not %s" % type(obj).__name__) from None
    if view.format not in ("q", "<q", "=q", "l", "<l", "=l", "Q", "B", "b", "c") or (
            view.format in ("l", "<l", "=l") and view.itemsize != 8):
        raise TypeError("profiling buffer holds %r items; int64 expected" % view.format)
    raw = view.cast("B") if view.ndim != 1 or view.format != "B" else view
    if len(raw) % 8:
        raise ValueError("profiling buffer is %d bytes, not a whole number of int64 words"
                         % len(raw))
    words = array.array("q")
    words.frombytes(raw.tobytes())
    return words


def _write_npy(path, words, size):
    rows = len(words) // size
    header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, size)
    pad = (64 - (10 + len(header) + 1) % 64) % 64
    header = header + " " * pad + "\n"
    data = array.array("q", words)
    if sys.byteorder == "big":
        data.byteswap()

    def write(f):
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(data.tobytes())

    _atomic_write(path, write)


def _torch_groups(profiling, size, num_blocks):
    """Returns (groups to save, slot descriptions of all the data)."""
    import torch

    if isinstance(profiling, (list, tuple)):
        groups = []
        slots = []
        for t in profiling:
            if t.dtype != torch.int64:
                raise TypeError("profiling tensors must be int64, got %s" % t.dtype)
            g = t.detach().cpu().contiguous()
            groups.append(g)
            if g.numel() and g.shape[-1] >= 8:
                slots += _describe_headers(g.reshape(-1, g.shape[-1])[:, :8].tolist(),
                                           g.shape[-1])
        return groups, slots
    if profiling.dtype != torch.int64:
        raise TypeError("profiling_data must be an int64 tensor, got %s" % profiling.dtype)
    flat = profiling.detach().cpu().reshape(-1).contiguous()
    if flat.numel() == 0 or flat.numel() % size:
        raise ValueError("profiling_data has %d words, not a whole number of %d-word slots "
                         "(PROF_SIZE_PER_CORE)" % (flat.numel(), size))
    rows = flat.view(-1, size)
    slots = _describe_headers(rows[:, :8].tolist(), size)
    nb = num_blocks if num_blocks is not None else _infer_block_num(slots)
    if nb and 3 * nb <= rows.shape[0]:
        return [rows[:nb].clone(), rows[nb:3 * nb].clone()], slots
    return [rows.clone()], slots


def save_profiling_data(profiling, rank_id, output_dir, base_h_path=None, *, num_blocks=None,
                        prof_size_per_core=None, fmt=None):
    """Write one rank's profiling data to output_dir/rankNNN.pt (tensors) or .npy (buffers).

    profiling: the operator's profiling_data (torch tensor, list of tensors, buffer, list of ints).
    rank_id: non-negative int; the file is rank%03d.
    output_dir: created if missing; relative paths resolve against os.getcwd() at call time.
    base_h_path: the operator's <op>_base.h; checked (must enable profiling) and used for
        PROF_SIZE_PER_CORE. None skips the check (size from prof_size_per_core or 2048).
    num_blocks: block count of the launch (GetBlockNum()) for grouping; inferred when None.
    fmt: 'pt' or 'npy' to force a format ('pt' needs torch); default by input type.
    Returns the Path written. Raises ProfilingConfigError, TypeError or ValueError.
    """
    config = read_profiling_config(base_h_path) if base_h_path is not None else None
    if config is not None and not config.enabled:
        raise ProfilingConfigError(
            "ENABLE_MOE_PROFILING is 0 in %s: the kernel records nothing, so there is nothing "
            "to save; set it to 1 and rebuild the kernel" % config.path)
    size = prof_size_per_core or (config.prof_size_per_core if config else None) \
        or DEFAULT_PROF_SIZE_PER_CORE
    if isinstance(rank_id, bool) or int(rank_id) != rank_id or int(rank_id) < 0:
        raise ValueError("rank_id must be a non-negative integer, got %r" % (rank_id,))
    rank = int(rank_id)
    out = _resolve_dir(output_dir)
    out.mkdir(parents=True, exist_ok=True)

    is_torch = _is_torch_tensor(profiling) or (
        isinstance(profiling, (list, tuple)) and profiling and
        all(_is_torch_tensor(t) for t in profiling))
    if fmt is None:
        fmt = "pt" if is_torch else "npy"
    if fmt not in ("pt", "npy"):
        raise ValueError("fmt must be 'pt' or 'npy', got %r" % (fmt,))

    if is_torch:
        groups, slots = _torch_groups(profiling, size, num_blocks)
    else:
        if fmt == "pt":
            raise ValueError("fmt='pt' needs a torch tensor")
        words = _buffer_words(profiling)
        if len(words) == 0 or len(words) % size:
            raise ValueError("profiling data has %d words, not a whole number of %d-word slots "
                             "(PROF_SIZE_PER_CORE)" % (len(words), size))
        slots = describe_slots(words, size)

    if not any(d["records"] for d in slots):
        warnings.warn("rank %d: profiling data holds no trace record (no points in the kernel, "
                      "ENABLE_MOE_PROFILING off at build time, or saved before the device "
                      "synchronised)" % rank, RuntimeWarning, stacklevel=2)

    if fmt == "pt":
        import torch

        path = out / ("rank%03d.pt" % rank)
        _atomic_write(path, lambda f: torch.save(groups, f))
    else:
        path = out / ("rank%03d.npy" % rank)
        if is_torch:
            import torch

            words = array.array("q")
            words.frombytes(torch.cat([g.reshape(-1) for g in groups]).numpy().tobytes()
                            if _has_numpy() else _tensor_bytes(groups))
            size = groups[0].shape[-1]
        _write_npy(path, words, size)
    return path


def _has_numpy():
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def _tensor_bytes(groups):
    out = array.array("q")
    for g in groups:
        out.extend(g.reshape(-1).tolist())
    return out.tobytes()


def _load_words(path):
    path = Path(path)
    if path.suffix == ".npy":
        data = path.read_bytes()
        if data[:6] != b"\x93NUMPY":
            raise ValueError("%s: not a .npy file" % path)
        hlen = struct.unpack("<H", data[8:10])[0]
        header = data[10:10 + hlen].decode("latin1")
        m = re.search(r"'shape': \((\d+), (\d+)\)", header)
        if "'<i8'" not in header or m is None:
            raise ValueError("%s: not a 2-D int64 .npy file" % path)
        words = array.array("q")
        words.frombytes(data[10 + hlen:])
        if sys.byteorder == "big":
            words.byteswap()
        return words, int(m.group(2))
    import torch

    groups = torch.load(str(path))
    if not isinstance(groups, (list, tuple)):
        groups = [groups]
    size = groups[0].shape[-1]
    return torch.cat([g.reshape(-1) for g in groups]).tolist(), size


def _main(argv):
    if len(argv) != 2 or argv[0] != "summary":
        sys.stderr.write("usage: autotrace_save.py summary FILE.pt|FILE.npy\n")
        return 2
    words, size = _load_words(argv[1])
    for d in describe_slots(words, size):
        if d["layout"] is None:
            continue
        extra = ""
        if d["layout"] == "v2":
            extra = " %s block %d sub %d dropped %d stamp %#x" % (
                d["core"], d["block"], d["sub_block"], d["dropped"], d["stamp"])
        print("slot %d: %s records %d%s" % (d["slot"], d["layout"], d["records"], extra))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
