#!/usr/bin/python3
# Writes the collect benchmark input: RANKS rank dumps in the field's moe-v1
# .pt layout (torch.save of a list of a (24, 2048) AIC and a (48, 2048) AIV
# int64 tensor), RECORDS records per core, and the point_map.json that names
# their ids. Needs Debian's python3-torch: run with /usr/bin/python3.
#   bench/gen_dumps.py OUTDIR [RANKS [RECORDS]]
import json
import os
import sys

import numpy as np
import torch

S, AIC, AIV = 2048, 24, 48
LABELS = ["dispatch aic", "dispatch aiv", "gmm moe-process", "gmm wait", "combine send-core",
          "combine recv-core", "combine wait", "epilogue copy", "dispatch quant", "combine dequant",
          "gmm sync", "dispatch send", "dispatch recv", "epilogue calc", "gmm block", "combine copy"]


def points():
    pts = {1: ("processing", "B"), 2: ("processing", "E")}
    for i, l in enumerate(LABELS):
        pts[3 + 2 * i] = (l, "B")
        pts[4 + 2 * i] = (l, "E")
    return pts


def core_records(rng, n):
    ids = [1]
    while len(ids) + 4 <= n - 1:
        a, b = rng.integers(0, len(LABELS), 2)
        ids += [3 + 2 * a, 3 + 2 * b, 4 + 2 * b, 4 + 2 * a]
    ids.append(2)
    while len(ids) < n:
        ids += [3, 4]
    ids = np.array(ids[:n], dtype=np.int64)
    # loop index on the outer slices of the body, like MoeTracing(id, extra, index)
    idx = np.arange(n, dtype=np.int64) % 8
    words = ids | (idx << 40)
    cycles = 1_000_000 + np.cumsum(rng.integers(10, 100, n)).astype(np.int64)
    return words, cycles


def slot(rng, n, entry_jitter):
    w = np.zeros(S, dtype=np.int64)
    words, cycles = core_records(rng, n)
    cycles += entry_jitter
    w[0] = n + 1
    w[1:1 + n] = words
    w[S - 2 - np.arange(n)] = cycles
    w[S - 1] = 1_000_000 + entry_jitter
    return w


def main():
    out = sys.argv[1]
    ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    assert n <= (S - 2) // 2
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    for r in range(ranks):
        aic = np.stack([slot(rng, n, 3 * c) for c in range(AIC)])
        aiv = np.stack([slot(rng, n, 3 * (AIC + c)) for c in range(AIV)])
        torch.save([torch.from_numpy(aic), torch.from_numpy(aiv)], os.path.join(out, "rank%03d.pt" % r))
    pm = {"version": 1, "generator": "bench/gen_dumps.py", "build_stamp": "0000000000000001",
          "points": {str(i): {"label": l, "event_type": t, "event_id": (i + 1) // 2, "file": "op_kernel/op.h",
                              "line": 10 * i} for i, (l, t) in points().items()}}
    with open(os.path.join(out, "point_map.json"), "w") as f:
        json.dump(pm, f, indent=1)
    with open(os.path.join(out, "bench.rules"), "w") as f:
        f.write("rules 1;\ncollect { layout moe-v1; clock 50 MHz; cores aic 24, aiv 48; slot 2048; }\n")


if __name__ == "__main__":
    main()
