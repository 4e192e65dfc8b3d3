#!/usr/bin/env python3
# A Perfetto trace with TracePacket.compressed_packets (field 50: a zlib
# stream of packets, as `collect -f perfetto --compress` and Perfetto's own
# service write it) turned into the same trace without compression, for the
# decoders of the tests (protoc, check_pftrace.py, pftrace_dump): each such
# packet is replaced by the packets it holds; the others are kept as they
# are. Each chunk must inflate to whole packets (Perfetto decodes each one
# alone): a packet cut between two chunks is an error. Independent of
# autotrace: Python's zlib and a few lines of protobuf.
#   inflate_pftrace.py IN > OUT
import sys
import zlib


def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def fields(b):
    """(number, wire type, value or bytes, start, end) of each field of b."""
    i = 0
    while i < len(b):
        start = i
        key, i = varint(b, i)
        num, wire = key >> 3, key & 7
        if i >= len(b):
            raise SystemExit("inflate_pftrace: a field key at byte %d with nothing after it" % start)
        if wire == 0:
            v, i = varint(b, i)
        elif wire == 2:
            n, i = varint(b, i)
            v = b[i:i + n]
            i += n
        elif wire == 1:
            v = b[i:i + 8]
            i += 8
        elif wire == 5:
            v = b[i:i + 4]
            i += 4
        else:
            raise SystemExit("inflate_pftrace: wire type %d at byte %d" % (wire, start))
        yield num, wire, v, start, i


def main():
    data = open(sys.argv[1], "rb").read()
    out = bytearray()
    chunks = 0
    for num, wire, packet, start, end in fields(data):
        inner = [v for n, w, v, _, _ in fields(packet) if n == 50 and w == 2] if num == 1 and wire == 2 else []
        if inner:
            for z in inner:
                dec = zlib.decompress(bytes(z))
                end_of = 0
                for n, w, v, _, e in fields(dec):
                    if n != 1 or w != 2 or e > len(dec):
                        raise SystemExit("inflate_pftrace: chunk %d: not whole packets (field %d, wire %d, "
                                         "ends at byte %d of %d)" % (chunks, n, w, e, len(dec)))
                    end_of = e
                if end_of != len(dec):
                    raise SystemExit("inflate_pftrace: chunk %d: a packet runs past its end" % chunks)
                out += dec
                chunks += 1
        else:
            out += data[start:end]
    sys.stdout.buffer.write(bytes(out))
    sys.stderr.write("inflate_pftrace: %d compressed chunks\n" % chunks)


if __name__ == "__main__":
    main()
