"""Tests of device/python/autotrace_save.py; prints TAP. Run: python3 tests/python/test_save.py

Uses only the standard library; the torch tests are skipped (and say so) where torch is missing,
the numpy cross-check where numpy is missing.
"""

import array
import contextlib
import os
import re
import struct
import subprocess
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

TOP = Path(os.environ.get("TOP_SRCDIR") or Path(__file__).resolve().parents[2])
sys.path.insert(0, str(TOP / "device" / "python"))

import autotrace_save as at  # noqa: E402

S = 64
MAGIC_WORD = 0x4D4F455400080002


class Skip(Exception):
    pass


def have(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def needs_torch():
    if not have("torch"):
        raise Skip("torch is not installed for %s" % sys.executable)


@contextlib.contextmanager
def tmpdir():
    with tempfile.TemporaryDirectory() as d:
        yield Path(d)


@contextlib.contextmanager
def cwd(path):
    old = os.getcwd()
    os.chdir(str(path))
    try:
        yield
    finally:
        os.chdir(old)


def header(tmp, text, name="op_base.h"):
    p = tmp / name
    p.write_text(text)
    return p


def v2_slot(core, block, sub, block_num, records, size=S):
    words = [0] * size
    words[0] = MAGIC_WORD
    words[1] = core | (2 << 8) | (block_num << 16) | (size << 32)
    words[2], words[3], words[4], words[5], words[6], words[7] = block, sub, records, 0, 7, 100
    for k in range(records):
        words[8 + 2 * k] = k + 1
        words[9 + 2 * k] = 100 + k
    return words


def v2_dump(block_num, spare_slots=0, size=S):
    words = []
    for b in range(block_num):
        words += v2_slot(1, b, 0, block_num, 2, size)
    for v in range(2 * block_num):
        words += v2_slot(2, v, v % 2, block_num, 3, size)
    return words + [0] * (spare_slots * size)


def read_npy(path):
    data = Path(path).read_bytes()
    assert data[:8] == b"\x93NUMPY\x01\x00", data[:8]
    hlen = struct.unpack("<H", data[8:10])[0]
    assert (10 + hlen) % 64 == 0, "data not 64-byte aligned"
    hdr = data[10:10 + hlen].decode("latin1")
    assert hdr.endswith("\n")
    m = re.match(r"\{'descr': '<i8', 'fortran_order': False, 'shape': \((\d+), (\d+)\), \}", hdr)
    assert m, hdr
    words = array.array("q")
    words.frombytes(data[10 + hlen:])
    if sys.byteorder == "big":
        words.byteswap()
    return (int(m.group(1)), int(m.group(2))), list(words)


# --- paths (G5) ---

def test_relative_dir_resolves_against_callers_cwd():
    with tmpdir() as t:
        (t / "a").mkdir()
        with cwd(t / "a"):
            p = at.save_profiling_data(array.array("q", v2_dump(1)), 3, "out",
                                       prof_size_per_core=S)
        assert p == (t / "a" / "out" / "rank003.npy").resolve(), p
        assert p.is_absolute() and p.is_file()
        assert not (Path(at.__file__).parent / "out").exists()


def test_relative_dir_follows_cwd_at_call_time():
    with tmpdir() as t:
        for sub in ("x", "y"):
            (t / sub).mkdir()
            with cwd(t / sub):
                at.save_profiling_data(array.array("q", v2_dump(1)), 0, "prof",
                                       prof_size_per_core=S)
        assert (t / "x" / "prof" / "rank000.npy").is_file()
        assert (t / "y" / "prof" / "rank000.npy").is_file()


def test_user_dir_expanded():
    with tmpdir() as t:
        old = os.environ.get("HOME")
        os.environ["HOME"] = str(t)
        try:
            p = at.save_profiling_data(array.array("q", v2_dump(1)), 1, "~/d", prof_size_per_core=S)
        finally:
            if old is None:
                del os.environ["HOME"]
            else:
                os.environ["HOME"] = old
        assert p == (t / "d" / "rank001.npy").resolve(), p


# --- refusals ---

def test_disabled_header_refused_and_nothing_written():
    with tmpdir() as t:
        h = header(t, "#define ENABLE_MOE_PROFILING 0\n#define PROF_SIZE_PER_CORE 64\n")
        try:
            at.save_profiling_data(array.array("q", v2_dump(1)), 0, t / "out", base_h_path=h)
        except at.ProfilingConfigError as e:
            assert "ENABLE_MOE_PROFILING is 0" in str(e) and str(h) in str(e), e
        else:
            raise AssertionError("no exception")
        assert not (t / "out").exists()


def test_unreadable_header_refused():
    with tmpdir() as t:
        missing = t / "nope_base.h"
        try:
            at.save_profiling_data(array.array("q", v2_dump(1)), 0, t / "out", base_h_path=missing)
        except at.ProfilingConfigError as e:
            assert "cannot read" in str(e) and str(missing) in str(e), e
        else:
            raise AssertionError("no exception")
        assert not (t / "out").exists()


def test_header_without_switch_refused():
    with tmpdir() as t:
        h = header(t, "#pragma once\n#define PROF_SIZE_PER_CORE 64\n")
        try:
            at.read_profiling_config(h)
        except at.ProfilingConfigError as e:
            assert "does not define ENABLE_MOE_PROFILING" in str(e), e
        else:
            raise AssertionError("no exception")


def test_bad_slot_size_refused():
    with tmpdir() as t:
        h = header(t, "#define ENABLE_MOE_PROFILING 1\n#define PROF_SIZE_PER_CORE 100\n")
        try:
            at.read_profiling_config(h)
        except at.ProfilingConfigError as e:
            assert "PROF_SIZE_PER_CORE" in str(e), e
        else:
            raise AssertionError("no exception")


def test_commented_defines_ignored():
    with tmpdir() as t:
        h = header(t, "// #define ENABLE_MOE_PROFILING 0\n/* #define ENABLE_MOE_PROFILING 0\n*/\n"
                      "#ifndef ENABLE_MOE_PROFILING\n#define ENABLE_MOE_PROFILING 1\n#endif\n")
        c = at.read_profiling_config(h)
        assert c.enabled and c.prof_size_per_core == 2048, c


def test_example_and_runtime_headers_read_as_enabled():
    for p in (TOP / "examples" / "moe_dispatch_gmm" / "op_kernel" / "moe_distribute_dispatch_gmm_base.h",
              TOP / "device" / "moe_tracing.h"):
        c = at.read_profiling_config(p)
        assert c.enabled and c.prof_size_per_core == 2048 and c.layout in (None, 2), (p, c)


def test_relative_header_resolves_against_cwd():
    with tmpdir() as t:
        header(t, "#define ENABLE_MOE_PROFILING 1\n#define PROF_SIZE_PER_CORE 64\n")
        with cwd(t):
            c = at.read_profiling_config("op_base.h")
        assert c.path == t / "op_base.h" and c.prof_size_per_core == 64, c


def test_bad_rank_and_shape_refused():
    with tmpdir() as t:
        for rank in (-1, 1.5, True):
            try:
                at.save_profiling_data(array.array("q", v2_dump(1)), rank, t, prof_size_per_core=S)
            except ValueError:
                pass
            else:
                raise AssertionError("rank %r accepted" % (rank,))
        try:
            at.save_profiling_data(array.array("q", [1] * (S + 1)), 0, t, prof_size_per_core=S)
        except ValueError as e:
            assert "whole number" in str(e), e
        else:
            raise AssertionError("ragged data accepted")
        for bad in (array.array("d", [0.0] * S), object()):
            try:
                at.save_profiling_data(bad, 0, t, prof_size_per_core=S)
            except TypeError:
                pass
            else:
                raise AssertionError("%r accepted" % (bad,))


# --- .npy output ---

def test_npy_from_array_buffer():
    with tmpdir() as t:
        h = header(t, "#define ENABLE_MOE_PROFILING 1\n#define PROF_SIZE_PER_CORE 64\n")
        words = v2_dump(2, spare_slots=1)
        p = at.save_profiling_data(array.array("q", words), 7, t / "o", base_h_path=h)
        assert p.name == "rank007.npy"
        shape, back = read_npy(p)
        assert shape == (7, S) and back == words, shape


def test_npy_from_bytes_and_list():
    with tmpdir() as t:
        words = v2_dump(1)
        raw = array.array("q", words).tobytes()
        shape, back = read_npy(at.save_profiling_data(raw, 0, t, prof_size_per_core=S))
        assert shape == (3, S) and back == words
        shape, back = read_npy(at.save_profiling_data(words, 1, t, prof_size_per_core=S))
        assert shape == (3, S) and back == words


def test_npy_readable_by_numpy():
    if not have("numpy"):
        raise Skip("numpy is not installed for %s" % sys.executable)
    import numpy as np
    with tmpdir() as t:
        words = v2_dump(2)
        p = at.save_profiling_data(np.array(words, dtype=np.int64), 0, t, prof_size_per_core=S)
        a = np.load(str(p))
        assert a.dtype == np.int64 and a.shape == (6, S) and a.reshape(-1).tolist() == words


def test_warns_when_no_record():
    with tmpdir() as t:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            at.save_profiling_data(array.array("q", [0] * (3 * S)), 0, t, prof_size_per_core=S)
        assert any("no trace record" in str(x.message) for x in w), [str(x.message) for x in w]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            at.save_profiling_data(array.array("q", v2_dump(1)), 0, t, prof_size_per_core=S)
        assert not w, [str(x.message) for x in w]


def test_atomic_write_and_mode():
    with tmpdir() as t:
        old = os.umask(0o022)
        try:
            p = at.save_profiling_data(array.array("q", v2_dump(1)), 0, t, prof_size_per_core=S)
        finally:
            os.umask(old)
        assert sorted(x.name for x in t.iterdir()) == ["rank000.npy"]
        assert (p.stat().st_mode & 0o777) == 0o644, oct(p.stat().st_mode)


def test_describe_slots_v1_v2():
    words = v2_dump(1)
    d = at.describe_slots(words, S)
    assert [x["core"] for x in d] == ["AIC", "AIV", "AIV"], d
    assert [x["records"] for x in d] == [2, 3, 3] and d[2]["block"] == 1 and d[2]["sub_block"] == 1
    assert d[0]["block_num"] == 1 and d[0]["stamp"] == 7
    v1 = [0] * (2 * S)
    v1[0] = 4
    d = at.describe_slots(v1, S)
    assert d[0]["layout"] == "v1" and d[0]["records"] == 3 and d[1]["layout"] is None, d


def test_summary_cli():
    with tmpdir() as t:
        p = at.save_profiling_data(array.array("q", v2_dump(1)), 0, t, prof_size_per_core=S)
        out = subprocess.run([sys.executable, at.__file__, "summary", str(p)], check=True,
                             stdout=subprocess.PIPE, universal_newlines=True).stdout
        assert "slot 0: v2 records 2 AIC block 0 sub 0" in out, out
        assert "slot 2: v2 records 3 AIV block 1 sub 1" in out, out


# --- .pt output (torch) ---

def test_pt_flat_tensor_grouped_aic_aiv():
    needs_torch()
    import torch
    with tmpdir() as t:
        h = header(t, "#define ENABLE_MOE_PROFILING 1\n#define PROF_SIZE_PER_CORE 64\n")
        words = v2_dump(2, spare_slots=5)
        p = at.save_profiling_data(torch.tensor(words, dtype=torch.int64), 2, t, base_h_path=h)
        assert p.name == "rank002.pt"
        groups = torch.load(str(p))
        assert isinstance(groups, list) and [tuple(g.shape) for g in groups] == [(2, S), (4, S)]
        assert all(g.dtype == torch.int64 for g in groups)
        assert torch.cat([g.reshape(-1) for g in groups]).tolist() == words[:6 * S]


def test_pt_v1_blocks_inferred_from_last_used_slot():
    needs_torch()
    import torch
    words = [0] * (12 * S)
    for s in range(6):
        words[s * S] = 2
    with tmpdir() as t:
        p = at.save_profiling_data(torch.tensor(words), 0, t, prof_size_per_core=S)
        assert [tuple(g.shape) for g in torch.load(str(p))] == [(2, S), (4, S)]
        p = at.save_profiling_data(torch.tensor(words), 1, t, prof_size_per_core=S, num_blocks=4)
        assert [tuple(g.shape) for g in torch.load(str(p))] == [(4, S), (8, S)]


def test_pt_list_saved_as_given():
    needs_torch()
    import torch
    with tmpdir() as t:
        groups = [torch.tensor(v2_dump(1)[:S]).view(1, S), torch.zeros(2, S, dtype=torch.int64)]
        p = at.save_profiling_data(groups, 0, t)
        back = torch.load(str(p))
        assert len(back) == 2 and all(torch.equal(a, b) for a, b in zip(back, groups))


def test_pt_rejects_non_int64():
    needs_torch()
    import torch
    with tmpdir() as t:
        try:
            at.save_profiling_data(torch.zeros(3 * S, dtype=torch.float32), 0, t, prof_size_per_core=S)
        except TypeError as e:
            assert "int64" in str(e)
        else:
            raise AssertionError("float tensor accepted")


def test_pt_tensor_as_npy():
    needs_torch()
    import torch
    with tmpdir() as t:
        words = v2_dump(1)
        p = at.save_profiling_data(torch.tensor(words), 0, t, prof_size_per_core=S, fmt="npy")
        shape, back = read_npy(p)
        assert p.suffix == ".npy" and shape == (3, S) and back == words


def test_pt_disabled_refused_before_torch_work():
    needs_torch()
    import torch
    with tmpdir() as t:
        h = header(t, "#define ENABLE_MOE_PROFILING 0\n")
        try:
            at.save_profiling_data(torch.zeros(3 * S, dtype=torch.int64), 0, t / "o", base_h_path=h)
        except at.ProfilingConfigError:
            pass
        else:
            raise AssertionError("no exception")
        assert not (t / "o").exists()


def main():
    tests = [(n, f) for n, f in globals().items() if n.startswith("test_") and callable(f)]
    print("1..%d" % len(tests))
    failed = 0
    for i, (name, fn) in enumerate(tests, 1):
        label = name[5:].replace("_", " ")
        try:
            fn()
        except Skip as e:
            print("ok %d - %s # SKIP %s" % (i, label, e))
        except Exception:
            failed += 1
            print("not ok %d - %s" % (i, label))
            for line in traceback.format_exc().splitlines():
                print("# " + line)
        else:
            print("ok %d - %s" % (i, label))
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
