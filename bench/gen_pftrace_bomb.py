#!/usr/bin/env python3
# A Perfetto trace whose one TracePacket.compressed_packets (field 50)
# inflates to MIB MiB of zeros, for the inflate cap of `report`'s reader
# (src/collect/perfetto_read.c: PERFETTO_MAX_CHUNK, 256 MiB): written in an
# instant, without deflating MIB MiB, as deflate blocks of 1 MiB each
# closed by a full flush (no block looks back past its start, so one block
# repeated is a valid stream), then an empty final block and the Adler-32 of
# the zeros. The field is padded after the stream (inflate stops at its end)
# to FIELD bytes, by default 523,263: a buffer that starts at 4 x the field
# + 4096 bytes and doubles, as the reader's did before issue 33, then comes
# to 256 MiB - 512 bytes, just under the cap, and doubles once more to
# 512 MiB - 1 KiB (its worst case: such a chunk was even read whole). A
# stream too long for that (over about 504 MiB) takes FIELD 1,047,551: the
# same buffer then stops at 512 MiB - 512 bytes and refuses it there.
# The packet before it names a track, so the file is a trace either way.
#   gen_pftrace_bomb.py OUT MIB [FIELD]
import sys
import zlib

MIB = 1 << 20


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def zeros_stream(mib):
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = co.compress(b"\0" * MIB) + co.flush(zlib.Z_FULL_FLUSH)
    n = mib * MIB
    adler = (n % 65521) << 16 | 1  # Adler-32 of n zero bytes
    # zlib header (deflate, 32 KiB window, level 9), the blocks, a final
    # empty block with fixed codes (byte-aligned after the full flush)
    return b"\x78\xda" + block * mib + b"\x03\x00" + adler.to_bytes(4, "big")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: gen_pftrace_bomb.py OUT MIB [FIELD]")
    out, mib = sys.argv[1], int(sys.argv[2])
    stream = zeros_stream(mib)
    size = int(sys.argv[3]) if len(sys.argv) == 4 else 523263
    if size < len(stream):
        size = len(stream)
    chunk = stream + b"\0" * (size - len(stream))
    track = field(60, field(2, b"bomb"))  # TracePacket.track_descriptor { name }
    with open(out, "wb") as f:
        f.write(field(1, track) + field(1, field(50, chunk)))


if __name__ == "__main__":
    main()
