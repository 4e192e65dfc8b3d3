#!/usr/bin/python3
# Generates the committed collect fixtures under tests/collect/fixtures/ with
# real torch.save (Debian's python3-torch: run with /usr/bin/python3). Run once
# after changing it; the outputs are committed, the tests never run this.
#
# Small on purpose: slots of 64 words (PROF_SIZE_PER_CORE 64, see small.rules),
# 2 AIC + 4 AIV cores. Slot contents follow device/LAYOUT.md word by word:
# moe-v1 (counter, ids forward from word 1, cycles backward from S-2, entry
# cycle at S-1) and moe-v2 (8-word header with magic, then (word, cycle) pairs).
import os
import shutil
import sys
import zipfile

import numpy as np
import torch

S = 64
AIC, AIV = 2, 4
STAMP = 0x5F3C9A1200000007
OTHER_STAMP = 0x1111222233334444
UNPRE = 0xFFFFFFFF
V2_WORD0 = (0x4D4F4554 << 32) | (8 << 16) | 2

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures")

# id: (label, type, event_id, file, line)
POINTS = {
    1: ("processing", "B", 1, "op_kernel/moe_op.h", 40),
    2: ("processing", "E", 1, "op_kernel/moe_op.h", 71),
    3: ("dispatch aic", "B", 2, "op_kernel/dispatch.h", 12),
    4: ("dispatch aic", "E", 2, "op_kernel/dispatch.h", 30),
    5: ("gmm moe-process", "B", 3, "op_kernel/gemm/kernel/grouped_matmul.h", 88),
    6: ("gmm moe-process", "E", 3, "op_kernel/gemm/kernel/grouped_matmul.h", 120),
    7: ("dispatch aiv", "B", 4, "op_kernel/dispatch.h", 50),
    8: ("dispatch aiv", "E", 4, "op_kernel/dispatch.h", 77),
    9: ("combine send-core", "B", 5, "op_kernel/combine.h", 20),
    10: ("combine send-core", "E", 5, "op_kernel/combine.h", 64),
    11: ("combine wait \"flag\"", "B", 6, "op_kernel/combine.h", 33),
    12: ("combine wait \"flag\"", "E", 6, "op_kernel/combine.h", 35),
}


def rec(pid, index=0, extra=0):
    return pid | (extra << 32) | (index << 40)


def aic_records(rank, b, entry):
    t = entry
    out = [(rec(1), t + 10), (rec(3), t + 20), (rec(4), t + 120)]
    for g in range(2):
        out += [(rec(5, index=g, extra=1), t + 200 + g * 100), (rec(6), t + 280 + g * 100)]
    out.append((rec(2), t + 500 + 7 * b + rank))
    return out


def aiv_records(rank, v, entry):
    t = entry
    return [
        (rec(1), t + 12), (rec(7), t + 15), (rec(8), t + 90 + v),
        (rec(9), t + 100), (rec(11), t + 110), (rec(12), t + 150 + 3 * v), (rec(10), t + 300),
        (rec(2), t + 480 + rank),
    ]


def v1_slot(records, entry):
    w = [0] * S
    assert len(records) <= (S - 2) // 2
    w[0] = len(records) + 1
    for k, (word, cyc) in enumerate(records):
        w[1 + k] = word
        w[S - 2 - k] = cyc
    w[S - 1] = entry
    return w


def v2_slot(core_type, block, sub, records, entry, stamp=STAMP, dropped=0, blocknum=AIC, subnum=2):
    w = [0] * S
    w[0] = V2_WORD0
    w[1] = core_type | (subnum << 8) | (blocknum << 16) | (S << 32)
    w[2], w[3], w[4], w[5], w[6], w[7] = block, sub, len(records), dropped, stamp, entry
    for k, (word, cyc) in enumerate(records):
        w[8 + 2 * k] = word
        w[9 + 2 * k] = cyc
    # LAYOUT.md: only the lines holding records are written back; the rest of the
    # slot keeps whatever GM held. Fill it with junk a reader must not touch.
    end = (8 + 2 * len(records) + 7) // 8 * 8
    for i in range(end, S):
        w[i] = 0x5A5A5A5A5A5A5A5A
    return w


def signed(words):
    return [x - (1 << 64) if x >= (1 << 63) else x for x in words]


def t64(rows):
    return torch.tensor([signed(r) for r in rows], dtype=torch.int64)


def entries(rank):
    # cores of one device start within a few cycles of each other; devices differ a lot
    base = 1_000_000 * (rank + 1) + 12345
    return [base + 3 * i for i in range(AIC + AIV)]


def v1_rank(rank):
    e = entries(rank)
    aic = [v1_slot(aic_records(rank, b, e[b]), e[b]) for b in range(AIC)]
    aiv = [v1_slot(aiv_records(rank, v, e[AIC + v]), e[AIC + v]) for v in range(AIV)]
    return aic, aiv


def save(obj, *path):
    p = os.path.join(OUT, *path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    torch.save(obj, p)
    return p


def write(data, *path):
    p = os.path.join(OUT, *path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)
    return p


def map_json(points, stamp, wrapper=True):
    import json
    body = {str(i): {"label": l, "event_type": t, "event_id": e, "file": f, "line": n}
            for i, (l, t, e, f, n) in sorted(points.items())}
    if not wrapper:
        return json.dumps(body, indent=1) + "\n"
    return json.dumps({"version": 1, "generator": "autotrace 0.1.0", "build_stamp": "%016x" % stamp,
                       "points": body}, indent=1) + "\n"


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    write(b"rules 1;\ncollect { layout auto; clock 50 MHz; cores aic 2, aiv 4; slot 64; }\n", "small.rules")
    write(map_json(POINTS, STAMP).encode(), "point_map.json")
    write(map_json(POINTS, STAMP, wrapper=False).encode(), "point_map_old.json")
    other = {i + 100: p for i, p in POINTS.items()}
    write(map_json(other, OTHER_STAMP).encode(), "point_map_other.json")

    # moe-v1, [(AIC, S), (AIV, S)] grouping; ranks 0 and 1
    for r in range(2):
        aic, aiv = v1_rank(r)
        save([t64(aic), t64(aiv)], "v1_pair", "rank%03d.pt" % r)
    # moe-v1, 1C2V grouping: AIC, AIV sub 0, AIV sub 1 (AIV v = group v//2, sub v%2)
    aic, aiv = v1_rank(0)
    save((t64(aic), t64(aiv[0::2]), t64(aiv[1::2])), "v1_triple", "rank000.pt")
    # the same slots as one flat tensor (.npy, raw .bin) and as a dict
    flat = np.array([signed(s) for s in aic + aiv], dtype="<i8")
    np.save(os.path.join(OUT, "v1_npy_rank000.npy"), flat)
    write(flat.tobytes(), "v1_bin", "rank000.bin")
    save({"aic": t64(aic), "aiv": t64(aiv)}, "v1_dict_rank000.pt")
    # an int32 dump (what a wrong dtype in the sample gives): read, widened
    save([torch.tensor([[x & 0x7FFFFFFF for x in s] for s in aic], dtype=torch.int32)], "v1_int32_rank000.pt")

    # multi-rank ordering: rank 10 sorts after rank 2 (numbers, not names)
    for r, name in ((0, "rank000.pt"), (2, "rank2.pt"), (10, "rank10.pt")):
        aic, aiv = v1_rank(r)
        save([t64(aic), t64(aiv)], "multi", name)

    # moe-v2: self-describing, AIV 1.1 never ran, AIC 1 dropped records
    e = entries(0)
    aic = [v2_slot(1, b, 0, aic_records(0, b, e[b]), e[b], dropped=3 if b == 1 else 0) for b in range(AIC)]
    aiv = [v2_slot(2, v, v % 2, aiv_records(0, v, e[AIC + v]), e[AIC + v]) for v in range(AIV)]
    aiv[3] = [0] * S
    save([t64(aic), t64(aiv)], "v2", "rank000.pt")
    # v2 of a build whose stamp is not the map's
    aic2 = [v2_slot(1, b, 0, aic_records(0, b, e[b]), e[b], stamp=OTHER_STAMP) for b in range(AIC)]
    save([t64(aic2), t64(aiv)], "v2_other_build", "rank000.pt")
    # v2 of an unpreprocessed build: every point recorded the reserved id, stamp 0
    unpre = [[(rec(UNPRE), c) for (_, c) in aic_records(0, b, e[b])] for b in range(AIC)]
    save([t64([v2_slot(1, b, 0, unpre[b], e[b], stamp=0) for b in range(AIC)])], "v2_unpreprocessed", "rank000.pt")

    # moe-v1 records that do not pair: unclosed B, E out of order, E with no B,
    # an id the map lacks, the reserved id; AIV 0 is a full slot (31 records)
    t = entries(0)[0]
    messy = [
        (rec(1), t + 10), (rec(3), t + 20), (rec(5, index=7), t + 30),
        (rec(4), t + 40),          # closes dispatch aic; gmm moe-process above it is unclosed
        (rec(4), t + 50),          # E without an open B
        (rec(999), t + 60),        # not in the map
        (rec(UNPRE), t + 70),      # unpreprocessed build
        (rec(9), t + 80),          # B never closed: closed at the slot's end (t + 90)
        (rec(12), t + 90),         # E without B
    ]
    full = []
    for k in range(31):
        full.append((rec(1 if k % 2 == 0 else 2), t + 100 + k))
    save([t64([v1_slot(messy, t), [0] * S]), t64([v1_slot(full, t + 1)] + [[0] * S] * 3)], "v1_messy",
         "rank000.pt")

    # bare pickles (seeds for tests/fuzz/fuzz_pt: mutations inside a zip only hit its CRC)
    for name, src in (("list.pkl", "v1_pair/rank000.pt"), ("dict.pkl", "v1_dict_rank000.pt"),
                      ("tuple.pkl", "v1_triple/rank000.pt")):
        with zipfile.ZipFile(os.path.join(OUT, src)) as z:
            pkl = [n for n in z.namelist() if n.endswith("/data.pkl")][0]
            write(z.read(pkl), "pickle", name)

    # bad inputs
    good = os.path.join(OUT, "v1_pair", "rank000.pt")
    data = open(good, "rb").read()
    write(b"", "bad", "empty.pt")
    write(data[: len(data) // 2], "bad", "truncated.pt")
    write(b"\0" * 4096, "bad", "zerofill.pt")
    # corrupt: flip bytes inside the stored storage entry (the zip CRC catches it)
    with zipfile.ZipFile(good) as z:
        info = [i for i in z.infolist() if i.filename.endswith("/data/0")][0]
    import struct
    name_len, extra_len = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
    off = info.header_offset + 30 + name_len + extra_len + 8
    corrupt = bytearray(data)
    for i in range(16):
        corrupt[off + i] ^= 0xFF
    write(bytes(corrupt), "bad", "corrupt.pt")
    # corrupt pickle: an opcode torch never writes, in a valid archive
    with zipfile.ZipFile(good) as z, zipfile.ZipFile(os.path.join(OUT, "bad", "badpickle.pt"), "w") as zo:
        for i in z.infolist():
            b = z.read(i.filename)
            if i.filename.endswith("data.pkl"):
                b = b[:2] + b"\xff" + b[3:]
            zo.writestr(i, b)
    save(torch.zeros(AIC + AIV, S, dtype=torch.int64), "bad", "zero.pt")
    save([torch.zeros(2, S, dtype=torch.float32)], "bad", "float.pt")
    save({"slots": t64(v1_rank(0)[0]), "note": "hello"}, "bad", "notensor.pt")
    bad_counter = [list(s) for s in v1_rank(0)[0]]
    bad_counter[1][0] = 5000
    save([t64(bad_counter)], "bad", "counter.pt")
    npy = open(os.path.join(OUT, "v1_npy_rank000.npy"), "rb").read()
    write(npy[: len(npy) - 100], "bad", "truncated.npy")
    write(flat.tobytes()[:-3], "bad", "odd.bin")
    write(b'{"points": {"1": {"label": "x", "event_type": "B"},\n "2": {"label": 7, "event_type": "E"}}}\n',
          "bad", "map_type.json")
    write(b'{"points": {"1": {"label": "x",\n  "event_type": "B"}\n', "bad", "map_syntax.json")


if __name__ == "__main__":
    sys.exit(main())
