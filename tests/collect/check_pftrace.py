#!/usr/bin/env python3
# Checks a Perfetto trace as `protoc --decode=perfetto.protos.Trace
# perfetto_trace.proto` prints it (stdin): protoc has parsed every byte
# against the schema; this applies what Perfetto's trace processor does with
# the fields (sequence state cleared first, interned event and annotation
# names, TracePacketDefaults giving the track and the clock, an incremental
# sequence-scoped clock reset by each ClockSnapshot, against BOOTTIME) and
# checks what a viewer relies on: names defined before use, events on
# declared tracks, time never going back on a track, slices strictly nested
# and all closed. Prints the events as tests/collect/pftrace_dump does, so
# the two decoders can be compared line by line. Exit 1 on the first fault.
import re
import sys


def parse(lines):
    """protoc's text format -> nested lists of (key, value) pairs."""
    stack = [[]]
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        m = re.match(r"^(\w+) \{$", line)
        if m:
            child = []
            stack[-1].append((m.group(1), child))
            stack.append(child)
            continue
        m = re.match(r"^(\w+): (.*)$", line)
        if not m:
            raise SystemExit("check_pftrace: unreadable protoc line: " + line)
        value = m.group(2)
        if value.startswith('"'):
            value = bytes(value[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")
        stack[-1].append((m.group(1), value))
    return stack[0]


def get(msg, key, default=None):
    for k, v in msg:
        if k == key:
            return v
    return default


def every(msg, key):
    return [v for k, v in msg if k == key]


def fault(what):
    sys.stderr.write("check_pftrace: %s\n" % what)
    sys.exit(1)


def main():
    trace = parse(sys.stdin)
    names, ann = {}, {}
    tracks = {}                 # uuid -> [name, depth, last_ts]
    cleared = False
    def_track, def_clock = None, None
    clock = None                # [incremental, unit, last]
    out = []
    for key, pk in trace:
        if key != "packet":
            fault("a Trace field other than packet: " + key)
        seq = get(pk, "trusted_packet_sequence_id")
        flags = int(get(pk, "sequence_flags", "0"))
        if flags & 1:
            if seq is None:
                fault("incremental state cleared without a sequence id")
            cleared = True
        d = get(pk, "trace_packet_defaults")
        if d is not None:
            if seq is None:
                fault("defaults without a sequence id")
            ted = get(d, "track_event_defaults")
            def_track = get(ted, "track_uuid") if ted is not None else None
            def_clock = get(d, "timestamp_clock_id")
        idata = get(pk, "interned_data")
        if idata is not None:
            if seq is None or not cleared:
                fault("interned data outside a cleared sequence")
            for en in every(idata, "event_names"):
                names[get(en, "iid")] = get(en, "name")
                out.append('intern %s "%s"' % (get(en, "iid"), get(en, "name")))
            for an in every(idata, "debug_annotation_names"):
                ann[get(an, "iid")] = get(an, "name")
        cs = get(pk, "clock_snapshot")
        if cs is not None:
            clocks = {get(c, "clock_id"): c for c in every(cs, "clocks")}
            if clocks.get("6") is None or int(get(clocks["6"], "timestamp", "0")) != 0:
                fault("a clock snapshot without BOOTTIME (6) at 0")
            c = clocks.get("64")
            if c is None:
                fault("a clock snapshot without the sequence's clock 64")
            clock = [get(c, "is_incremental") == "true", int(get(c, "unit_multiplier_ns", "1")),
                     int(get(c, "timestamp", "0")) * int(get(c, "unit_multiplier_ns", "1"))]
        td = get(pk, "track_descriptor")
        if td is not None:
            uuid = get(td, "uuid")
            if uuid in tracks:
                fault("track uuid %s declared twice" % uuid)
            proc, thread = get(td, "process"), get(td, "thread")
            if thread is not None:
                parent = get(td, "parent_uuid")
                if parent not in tracks:
                    fault("thread track before its process")
                tname = get(thread, "thread_name", "")
                tracks[uuid] = [tname, 0, 0]
                out.append('thread pid=%s tid=%s "%s" name="%s"' % (get(thread, "pid"), get(thread, "tid"), tname,
                                                                   get(td, "name", "")))
            elif proc is not None:
                tracks[uuid] = [get(proc, "process_name", ""), 0, 0]
                out.append('process pid=%s "%s"' % (get(proc, "pid"), get(proc, "process_name", "")))
        te = get(pk, "track_event")
        if te is None:
            continue
        if seq is None or not cleared:
            fault("an event outside a cleared sequence")
        ts = get(pk, "timestamp")
        if ts is None:
            fault("an event without a timestamp")
        ts = int(ts)
        clock_id = get(pk, "timestamp_clock_id", def_clock)
        if clock_id == "64":
            if clock is None:
                fault("an event on clock 64 before its snapshot")
            ts *= clock[1]
            if clock[0]:
                clock[2] += ts
                ts = clock[2]
        elif clock_id not in (None, "6"):
            fault("an event on clock %s" % clock_id)
        uuid = get(te, "track_uuid", def_track)
        if uuid not in tracks:
            fault("an event on an undeclared track %s" % uuid)
        t = tracks[uuid]
        if ts < t[2]:
            fault("time goes back on track %s: %d after %d" % (t[0], ts, t[2]))
        t[2] = ts
        args = ""
        for a in every(te, "debug_annotations"):
            an = get(a, "name") or ann.get(get(a, "name_iid"))
            if an is None:
                fault("an annotation with an undefined name")
            v = get(a, "uint_value") or ("1" if get(a, "bool_value") == "true" else "0")
            args += " %s=%s" % (an, v)
        kind = get(te, "type")
        if kind == "TYPE_SLICE_BEGIN":
            iid = get(te, "name_iid")
            if iid not in names:
                fault("a slice with an undefined name iid %s" % iid)
            t[1] += 1
            out.append("B %d [%s] %s%s" % (ts, t[0], names[iid], args))
        elif kind == "TYPE_SLICE_END":
            t[1] -= 1
            if t[1] < 0:
                fault("an end without a begin on track %s" % t[0])
            out.append("E %d [%s]%s" % (ts, t[0], args))
        else:
            fault("an event of type %s" % kind)
    for uuid, t in tracks.items():
        if t[1]:
            fault("slices left open on track %s" % t[0])
    print("\n".join(out))


if __name__ == "__main__":
    main()
