#!/usr/bin/python3
# Generates the committed inputs of the bad-input table (tests/badinput/cases)
# under tests/badinput/fixtures/: damaged copies of a real torch.save dump
# (tests/collect/fixtures/v1_pair/rank000.pt, written by torch.save), dumps
# written with torch.save whose records are wrong in one way each, and point
# maps and rules that do not fit. Run once with Debian's /usr/bin/python3
# (python3-torch) after changing it; the outputs are committed, the tests
# never run this. Inputs the repository cannot hold (a FIFO, a 2 GB sparse
# file, a symbolic link loop, a file being written) are made by the runner.
import importlib.util
import io
import json
import os
import shutil
import struct
import sys
import zipfile
import zlib

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures")
SRC = os.path.join(HERE, "..", "collect", "fixtures")

# the slot layout of the collect fixtures: one writer of moe-v1 slots
_spec = importlib.util.spec_from_file_location("collect_fixtures", os.path.join(HERE, "..", "collect", "gen_fixtures.py"))
collect_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(collect_fixtures)
S, rec, v1_slot, signed = collect_fixtures.S, collect_fixtures.rec, collect_fixtures.v1_slot, collect_fixtures.signed


def write(data, *path):
    p = os.path.join(OUT, *path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)


def save_slots(slots, *path):
    p = os.path.join(OUT, *path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    torch.save([torch.tensor([signed(s) for s in slots], dtype=torch.int64)], p)


def zip_by_hand(entries, descriptors):
    """A zip archive of (name, method, stream, crc, size) entries, written
    record by record so that a record can say what the data is not: the
    central directory gives crc and size (libzip reads by it); the local
    header gives them too, or, with descriptors (as torch.save writes), a
    data descriptor after the data does (sizes: the stream's length, stored,
    and `size`). An entry may carry "local" or "descriptor" (crc, size) to
    make that record differ."""
    out, cd = bytearray(), bytearray()
    for e in entries:
        name, method, stream, crc, size = e[:5]
        lie = e[5] if len(e) > 5 else {}
        nb = name.encode()
        flags = 0x800 | (8 if descriptors else 0)
        off = len(out)
        lcrc, lsize = lie.get("local", (crc, size))
        if descriptors:
            out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, method, 0, 0, 0, 0, 0, len(nb), 0) + nb + stream
            dcrc, dsize = lie.get("descriptor", (crc, size))
            out += struct.pack("<IIII", 0x08074B50, dcrc, len(stream), dsize)
        else:
            out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, method, 0, 0, lcrc, len(stream), lsize, len(nb),
                               0) + nb + stream
        cd += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, method, 0, 0, crc, len(stream), size, len(nb),
                          0, 0, 0, 0, 0, off) + nb
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(cd), len(out), 0)
    return bytes(out + cd + end)


def hand_zips(good):
    """Archives whose records disagree with their data, or with each other,
    from the entries of a real torch.save dump (zip/, seeds of fuzz_pt too):
    the pickle deflated into a stream that runs on past the size declared,
    with a CRC-32 over the whole stream (zipfile: "Bad CRC-32"; libzip
    checks the CRC-32 only where the stream ends) or over the declared bytes
    alone; with and without data descriptors; a descriptor or local header
    that gives another size than the central directory; an entry all of
    whose records claim 4 GB (libzip would allocate it)."""
    z = zipfile.ZipFile(io.BytesIO(good))
    stored = [(i.filename, 0, z.read(i.filename), i.CRC, i.file_size) for i in z.infolist()]

    def pickle_runs_on(crc_over_all):
        out = []
        for name, method, data, crc, size in stored:
            if name.endswith("/data.pkl"):
                whole = data + b"\0" * 64
                co = zlib.compressobj(9, zlib.DEFLATED, -15)
                out.append((name, 8, co.compress(whole) + co.flush(), zlib.crc32(whole if crc_over_all else data), size))
            else:
                out.append((name, method, data, crc, size))
        return out

    write(zip_by_hand(pickle_runs_on(True), False), "zip", "runs_on", "rank000.pt")
    write(zip_by_hand(pickle_runs_on(True), True), "zip", "runs_on_descriptor", "rank000.pt")
    write(zip_by_hand(pickle_runs_on(False), True), "zip", "runs_on_crc_declared", "rank000.pt")
    lies = [e + ({"descriptor": (e[3], e[4] + 100)},) if e[0].endswith("/data/1") else e for e in stored]
    write(zip_by_hand(lies, True), "zip", "descriptor_size", "rank000.pt")
    lies = [e + ({"local": (e[3] ^ 1, e[4])},) if e[0].endswith("/data/0") else e for e in stored]
    write(zip_by_hand(lies, False), "zip", "local_crc", "rank000.pt")
    huge = [e[:4] + (4294576128,) if e[0].endswith("/data/1") else e for e in stored]
    write(zip_by_hand(huge, True), "zip", "huge_declared", "rank000.pt")


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    good = open(os.path.join(SRC, "v1_pair", "rank000.pt"), "rb").read()
    z = zipfile.ZipFile(os.path.join(SRC, "v1_pair", "rank000.pt"))
    info = {i.filename: i for i in z.infolist()}

    def data_at(name):
        h = info[name].header_offset
        nl, el = struct.unpack("<HH", good[h + 26:h + 30])
        return h + 30 + nl + el

    # truncated at 10 offsets: in each local header, pickle, storage, the
    # small version entry, the central directory, the zip64 record, the end
    cd = good.rfind(b"PK\x01\x02", 0, good.rfind(b"PK\x06\x06"))
    cd = good.find(b"PK\x01\x02")
    z64 = good.rfind(b"PK\x06\x06")
    eocd = good.rfind(b"PK\x05\x06")
    cuts = [10, 40, data_at("rank000/data.pkl") + 100, info["rank000/data/0"].header_offset + 20,
            data_at("rank000/data/0") + 500, data_at("rank000/data/1") + 1000, info["rank000/version"].header_offset + 31,
            cd + 100, z64 + 30, eocd + 10]
    for c in cuts:
        write(good[:c], "cut", "at%d" % c, "rank000.pt")
    # one byte flipped: in the central directory (the local header offset of
    # the entry data/1), in the pickle, in a storage
    flip_cd = bytearray(good)
    p = cd
    while p < len(good):
        nl = struct.unpack("<H", good[p + 28:p + 30])[0]
        if good[p + 46:p + 46 + nl] == b"rank000/data/1":
            flip_cd[p + 42] ^= 0x40
            break
        p += 46 + nl + struct.unpack("<H", good[p + 30:p + 32])[0] + struct.unpack("<H", good[p + 32:p + 34])[0]
    write(bytes(flip_cd), "flip_cd", "rank000.pt")
    flip_pkl = bytearray(good)
    flip_pkl[data_at("rank000/data.pkl") + 30] ^= 0x01
    write(bytes(flip_pkl), "flip_pickle", "rank000.pt")
    flip_st = bytearray(good)
    flip_st[data_at("rank000/data/1") + 77] ^= 0x80
    write(bytes(flip_st), "flip_storage", "rank000.pt")
    hand_zips(good)

    # ranks with a gap: rank000 and rank002
    for r, name in ((0, "rank000.pt"), (1, "rank002.pt")):
        write(open(os.path.join(SRC, "v1_pair", "rank%03d.pt" % r), "rb").read(), "gap", name)
    # a rank number out of range
    write(good, "hugerank", "rank000.pt")
    write(good, "hugerank", "rank2147483648.pt")

    # one core with one cycle value out of order (a spike), the rest in order
    t = 1_000_000
    recs = [(rec(1), t + 10), (rec(3), t + 20), (rec(4), t + 30)]
    for g in range(6):
        recs += [(rec(5, index=g), t + 40 + 20 * g), (rec(6, index=g), t + 50 + 20 * g)]
    recs.append((rec(2), t + 200))
    spiked = list(recs)
    spiked[4] = (spiked[4][0], 900_000_000_000_000)
    save_slots([v1_slot(spiked, t), v1_slot(recs, t)] + [[0] * S] * 4, "spike", "rank000.pt")
    # an E whose index differs from its B, and interleaved slices of one label
    mism = [(rec(1), t + 10), (rec(5, index=2), t + 20), (rec(6, index=3), t + 30), (rec(2), t + 40)]
    inter = [(rec(1), t + 10), (rec(5, index=0), t + 20), (rec(5, index=1), t + 30), (rec(6, index=0), t + 40),
             (rec(6, index=1), t + 50), (rec(2), t + 60)]
    save_slots([v1_slot(mism, t), v1_slot(inter, t)] + [[0] * S] * 4, "pairs", "rank000.pt")

    # point maps: another build (v1 ids shifted by one), duplicate ids,
    # "07" beside "7", a non-integer id, a missing field, NUL, not UTF-8,
    # a key twice in a point, a negative event id
    base = json.load(open(os.path.join(SRC, "point_map.json")))
    shifted = dict(base)
    shifted["points"] = {str(int(k) + 1): v for k, v in base["points"].items()}
    write((json.dumps(shifted, indent=1) + "\n").encode(), "maps", "other_build.json")
    write(b'{"points": {\n "7": {"label": "a", "event_type": "B"},\n "8": {"label": "a", "event_type": "E"},\n'
          b' "7": {"label": "b", "event_type": "B"}}}\n', "maps", "duplicate.json")
    write(b'{"points": {\n "7": {"label": "a", "event_type": "B"},\n "07": {"label": "a", "event_type": "E"}}}\n',
          "maps", "leading_zero.json")
    write(b'{"points": {\n "1": {"label": "a", "event_type": "B"},\n "2.5": {"label": "a", "event_type": "E"}}}\n',
          "maps", "non_integer.json")
    write(b'{"points": {\n "1": {"label": "a", "event_type": "B"},\n "2": {"label": "a"}}}\n',
          "maps", "missing_field.json")
    write(b'{"points": {\n "1": {"label": "wait\\u0000flag", "event_type": "B"}}}\n', "maps", "nul.json")
    write(b'{"points": {\n "1": {"label": "caf\xe9", "event_type": "B"}}}\n', "maps", "latin1.json")
    # a key given twice inside one point (the reader would take the first
    # and drop the other), a negative event id (preprocess numbers from 1)
    write(b'{"points": {\n "1": {"label": "a", "event_type": "B", "event_id": 1},\n'
          b' "2": {"label": "a", "event_type": "E", "label": "b", "event_id": 1}}}\n', "maps", "repeated_key.json")
    write(b'{"points": {\n "1": {"label": "a", "event_type": "B", "event_id": 1},\n'
          b' "2": {"label": "a", "event_type": "E", "event_id": -1}}}\n', "maps", "negative_event_id.json")

    # rules that do not fit the dumps: a slot size that cuts a flat dump
    # wrongly, cores that differ from the tensors
    write(b"rules 1;\ncollect { layout auto; clock 50 MHz; cores aic 2, aiv 4; slot 32; }\n", "rules",
          "wrong_slot.rules")
    write(b"rules 1;\ncollect { layout auto; clock 50 MHz; cores aic 24, aiv 48; slot 64; }\n", "rules",
          "wrong_cores.rules")

    # preprocess: labels not UTF-8, a NUL in a label
    write(b'void F()\n{\n    MoeTracing(TRACE_POINT("caf\xe9 aic", "B"));\n    MoeTracing(TRACE_POINT("caf\xe9 aic", '
          b'"E"));\n}\n', "pp_latin1", "op_kernel", "f.h")
    write(b'void F()\n{\n    MoeTracing(TRACE_POINT("a\x00b", "B"));\n    MoeTracing(TRACE_POINT("a\x00b", "E"));\n}\n',
          "pp_nul", "op_kernel", "f.h")


if __name__ == "__main__":
    sys.exit(main())
