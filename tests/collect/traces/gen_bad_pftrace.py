#!/usr/bin/python3
# Writes the small Perfetto traces of report's refusals and warnings beside
# this file (issue 33, rows 11 and 12): the golden cases of tests/report
# read them, and fuzz_perfetto takes them as seeds. Written by hand from
# Perfetto's field numbers (those src/collect/perfetto_read.c names), so
# that each holds exactly one thing report must not take silently:
#   bad_nul_label.pftrace     two slices named "a\0b" and "a\0c"
#   bad_nul_track.pftrace     a track named "AIV\0 0"
#   bad_time_huge.pftrace     a slice begin at 2^63 - 1 ns
#   bad_end_before_begin.pftrace  a slice end before its begin
#   index_args.pftrace        debug annotations "index" -5, "index" "x",
#                             "extra" 2^33: warnings, the slices read
#   gen_bad_pftrace.py        (run again: the same bytes)
import os
import struct


def varint(v):
    out = bytearray()
    v &= (1 << 64) - 1
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(num, wire):
    return varint(num << 3 | wire)


def vint(num, v):
    return key(num, 0) + varint(v)


def ld(num, data):
    if isinstance(data, str):
        data = data.encode()
    return key(num, 2) + varint(len(data)) + data


def packet(*fields):
    body = vint(10, 1) + b"".join(fields)  # trusted_packet_sequence_id 1
    return ld(1, body)


def track(uuid, name):
    return packet(ld(60, vint(1, uuid) + ld(2, name)))


def slice_event(ts, begin, uuid, name=None, annotations=b""):
    te = vint(9, 1 if begin else 2) + vint(11, uuid) + annotations
    if name is not None:
        te += ld(23, name)
    return packet(vint(8, ts), ld(11, te))


def annotation(name, field, value):
    if field == 6:
        return ld(4, ld(10, name) + ld(6, value))
    return ld(4, ld(10, name) + vint(field, value))


def write(path, *packets):
    with open(path, "wb") as f:
        f.write(b"".join(packets))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    u = 1 << 32 | 7
    write(os.path.join(here, "bad_nul_label.pftrace"), track(u, "AIV 0.0"),
          slice_event(1000, True, u, b"a\0b"), slice_event(2000, False, u),
          slice_event(3000, True, u, b"a\0c"), slice_event(4000, False, u))
    write(os.path.join(here, "bad_nul_track.pftrace"), track(u, b"AIV\0 0"),
          slice_event(1000, True, u, "a"), slice_event(2000, False, u))
    write(os.path.join(here, "bad_time_huge.pftrace"), track(u, "AIV 0.0"),
          slice_event(1000, True, u, "a"), slice_event(2000, False, u),
          slice_event((1 << 63) - 1, True, u, "forever"), slice_event((1 << 63) - 1, False, u))
    write(os.path.join(here, "bad_end_before_begin.pftrace"), track(u, "AIV 0.0"),
          slice_event(10000, True, u, "late"), slice_event(4000, False, u))
    write(os.path.join(here, "index_args.pftrace"), track(u, "AIV 0.0"),
          slice_event(1000, True, u, "neg", annotation("index", 4, -5)), slice_event(2000, False, u),
          slice_event(3000, True, u, "text", annotation("index", 6, "x")), slice_event(4000, False, u),
          slice_event(5000, True, u, "wide", annotation("extra", 3, 1 << 33)), slice_event(6000, False, u),
          slice_event(7000, True, u, "fine", annotation("index", 3, 3)), slice_event(8000, False, u))


if __name__ == "__main__":
    main()
