#!/usr/bin/python3
# Writes RANKS rank dumps of 72 cores (a (24, 2048) AIC and a (48, 2048) AIV
# int64 tensor, the field's moe-v1 layout) with RECORDS records per core, and
# the point_map.json and rules that go with them, fast enough for 1,024 ranks
# (73.7 M records): the records are made with numpy, and the files are what
# torch.save writes byte for byte. torch.save writes one template archive
# per archive-name length (the folder inside the zip is the file's stem, so
# rank1000.pt lays out differently from rank999.pt); every rank is that
# template with its folder name, its two storages and their CRC-32s (data
# descriptor and central directory) replaced. `--check DIR` loads every
# dump in DIR with torch.load and compares it with what the generator meant
# to write (tests/collect.test runs it on two ranks). Needs Debian's
# python3-torch: run with /usr/bin/python3.
#   bench/gen_dumps.py OUTDIR [RANKS [RECORDS]]
#   bench/gen_dumps.py --check OUTDIR
import json
import os
import struct
import sys
import tempfile
import zlib

import numpy as np
import torch

S, AIC, AIV = 2048, 24, 48
LABELS = ["dispatch aic", "dispatch aiv", "gmm moe-process", "gmm wait", "combine send-core",
          "combine recv-core", "combine wait", "epilogue copy", "dispatch quant", "combine dequant",
          "gmm sync", "dispatch send", "dispatch recv", "epilogue calc", "gmm block", "combine copy"]
SEED = 7


def points():
    pts = {1: ("processing", "B"), 2: ("processing", "E")}
    for i, l in enumerate(LABELS):
        pts[3 + 2 * i] = (l, "B")
        pts[4 + 2 * i] = (l, "E")
    return pts


def rank_slots(rank, n):
    """The (72, S) int64 slots of one rank: per core `processing` around
    pairs of nested slices (a outer, b inner), each pair's B and E with the
    same loop index (0-7, as MoeTracing(id, extra, index) of a stage loop
    writes them), cycles rising by 10-99 from a per-core entry cycle."""
    rng = np.random.default_rng(SEED * 100003 + rank)
    cores = AIC + AIV
    groups = (n - 2) // 4
    a = rng.integers(0, len(LABELS), (cores, groups))
    b = rng.integers(0, len(LABELS), (cores, groups))
    ia = rng.integers(0, 8, (cores, groups))
    ib = rng.integers(0, 8, (cores, groups))
    body = np.stack([3 + 2 * a, 3 + 2 * b, 4 + 2 * b, 4 + 2 * a], axis=2).reshape(cores, groups * 4)
    body_idx = np.stack([ia, ib, ib, ia], axis=2).reshape(cores, groups * 4)
    fill = n - 2 - groups * 4  # 0 or 2 (n is even): one more closed (3, 4) pair
    ids = np.concatenate([np.ones((cores, 1), np.int64), body,
                          np.tile(np.array([3, 4], np.int64), (cores, fill // 2 + 1))[:, :fill],
                          np.full((cores, 1), 2, np.int64)], axis=1)
    idx = np.concatenate([np.zeros((cores, 1), np.int64), body_idx, np.zeros((cores, fill + 1), np.int64)], axis=1)
    words = ids | (idx << 40)
    entry = 1_000_000 + 3 * np.arange(cores, dtype=np.int64)[:, None] + 1000 * rank
    cycles = entry + np.cumsum(rng.integers(10, 100, (cores, n)), axis=1)
    slots = np.zeros((cores, S), np.int64)
    slots[:, 0] = n + 1
    slots[:, 1:1 + n] = words
    slots[:, S - 2 - np.arange(n)] = cycles
    slots[:, S - 1] = entry[:, 0]
    return slots


def records_of(argv):
    return int(argv[0]) if argv else 1000


class Template:
    """A torch.save archive of the dump shapes and where its bytes go."""

    def __init__(self, stem):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, stem + ".pt")
            torch.save([torch.zeros(AIC, S, dtype=torch.int64), torch.zeros(AIV, S, dtype=torch.int64)], path)
            self.data = bytearray(open(path, "rb").read())
        self.stem = stem
        self.names = []      # offsets of the folder name: local headers and central directory
        self.storages = []   # per storage key: (data offset, size, [CRC offsets])
        d = self.data
        eocd = d.rfind(b"PK\x05\x06")
        cd_size, cd_off = struct.unpack("<II", d[eocd + 12:eocd + 20])
        p = cd_off
        while p < cd_off + cd_size:
            assert d[p:p + 4] == b"PK\x01\x02"
            crc_at = p + 16
            nl, el, cl = struct.unpack("<HHH", d[p + 28:p + 34])
            lh = struct.unpack("<I", d[p + 42:p + 46])[0]
            name = bytes(d[p + 46:p + 46 + nl]).decode()
            self.names += [p + 46, lh + 30]
            lnl, lel = struct.unpack("<HH", d[lh + 26:lh + 30])
            off = lh + 30 + lnl + lel
            if name in (stem + "/data/0", stem + "/data/1"):
                size = struct.unpack("<I", d[p + 24:p + 28])[0]
                dd = off + size
                dd_crc = dd + 4 if d[dd:dd + 4] == b"PK\x07\x08" else dd
                self.storages.append((off, size, [crc_at, dd_crc]))
            p += 46 + nl + el + cl
        assert len(self.storages) == 2

    def write(self, path, stem, slots):
        d = bytearray(self.data)
        name = stem.encode()
        assert len(name) == len(self.stem)
        for at in self.names:
            d[at:at + len(name)] = name
        for (off, size, crcs), part in zip(self.storages, (slots[:AIC], slots[AIC:])):
            raw = part.astype("<i8").tobytes()
            assert len(raw) == size
            d[off:off + size] = raw
            crc = struct.pack("<I", zlib.crc32(raw) & 0xFFFFFFFF)
            for at in crcs:
                d[at:at + 4] = crc
        with open(path, "wb") as f:
            f.write(d)


def generate(out, ranks, n):
    assert 6 <= n <= (S - 2) // 2 and n % 2 == 0, "RECORDS: an even number from 6 to %d" % ((S - 2) // 2)
    os.makedirs(out, exist_ok=True)
    templates = {}
    for r in range(ranks):
        stem = "rank%03d" % r
        if len(stem) not in templates:
            templates[len(stem)] = Template(stem)
        templates[len(stem)].write(os.path.join(out, stem + ".pt"), stem, rank_slots(r, n))
    pm = {"version": 1, "generator": "bench/gen_dumps.py", "build_stamp": "0000000000000001",
          "points": {str(i): {"label": l, "event_type": t, "event_id": (i + 1) // 2, "file": "op_kernel/op.h",
                              "line": 10 * i} for i, (l, t) in points().items()}}
    with open(os.path.join(out, "point_map.json"), "w") as f:
        json.dump(pm, f, indent=1)
    with open(os.path.join(out, "bench.rules"), "w") as f:
        f.write("rules 1;\ncollect { layout moe-v1; clock 50 MHz; cores aic 24, aiv 48; slot 2048; }\n")
    with open(os.path.join(out, "records"), "w") as f:
        f.write("%d\n" % n)


def check(out):
    n = int(open(os.path.join(out, "records")).read())
    names = sorted(x for x in os.listdir(out) if x.startswith("rank") and x.endswith(".pt"))
    assert names, "no dumps in " + out
    for name in names:
        r = int(name[4:-3])
        got = torch.load(os.path.join(out, name))
        want = rank_slots(r, n)
        assert isinstance(got, list) and len(got) == 2, name
        assert got[0].dtype == torch.int64 and tuple(got[0].shape) == (AIC, S), name
        assert got[1].dtype == torch.int64 and tuple(got[1].shape) == (AIV, S), name
        assert np.array_equal(got[0].numpy(), want[:AIC]) and np.array_equal(got[1].numpy(), want[AIC:]), name
    print("%d dumps read back by torch.load as generated" % len(names))


def main():
    if sys.argv[1:2] == ["--check"]:
        check(sys.argv[2])
        return
    out = sys.argv[1]
    ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    generate(out, ranks, records_of(sys.argv[3:]))


if __name__ == "__main__":
    main()
