#!/usr/bin/env python3
# Checks a Perfetto trace as `protoc --decode=perfetto.protos.Trace
# perfetto_trace.proto` prints it (stdin): protoc has parsed every byte
# against the schema; this applies what Perfetto's trace processor does with
# the fields (sequence state cleared first, interned event and annotation
# names, TracePacketDefaults giving the track and the clock, an incremental
# sequence-scoped clock reset by each ClockSnapshot, against BOOTTIME) and
# checks what a viewer relies on: no field the schema lacks, at most one
# member of TracePacket's oneof data in a packet, names defined
# before use, every packet that relies on the sequence's state saying so
# (SEQ_NEEDS_INCREMENTAL_STATE; the one that clears it and interns the names
# 1|2), thread ids never 0 and unique, an explicit order of each process's
# threads, events on declared tracks, time never going back on a track,
# slices strictly nested and all closed. Prints the events as
# tests/collect/pftrace_dump does, so the two decoders can be compared line
# by line. Exit 1 on the first fault.
#   check_pftrace.py [--json TRACE.json] <DECODED
# With --json, the trace must hold what that Chrome JSON of the same dumps
# holds: the same processes, their threads (names, tids) in the same order
# (sibling_order_rank / thread_sort_index), the same slices on each.
import json
import re
import sys
from decimal import Decimal

SEQ_CLEARED, SEQ_NEEDS_STATE = 1, 2
# members of TracePacket's `oneof data` in perfetto_trace.proto (plain
# optional fields there, so that protoc shows each one a packet holds)
DATA_ONEOF = ("clock_snapshot", "track_event", "track_descriptor")


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
        m = re.match(r"^(\w+) \{$", line) or re.match(r"^(\w+): (.*)$", line)
        if m and m.group(1).isdigit():
            raise SystemExit("check_pftrace: field %s, which the schema does not define: %s" % (m.group(1), line))
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
    args = sys.argv[1:]
    chrome = None
    if args[:1] == ["--json"] and len(args) == 2:
        chrome = args[1]
    elif args:
        raise SystemExit("usage: check_pftrace.py [--json TRACE.json] <DECODED")
    trace = parse(sys.stdin)
    names, ann = {}, {}
    tracks = {}                 # uuid -> [name, depth, last_ts]
    procs = {}                  # process uuid -> [name, child_ordering, [(order, tid, name, uuid)]]
    tids = set()
    slices, open_slices = {}, {}  # thread uuid -> [(name, ts, dur, args)], and the open ones
    cleared = False
    def_track, def_clock = None, None
    clock = None                # [incremental, unit, last]
    out = []
    for key, pk in trace:
        if key != "packet":
            fault("a Trace field other than packet: " + key)
        data = [k for k, _ in pk if k in DATA_ONEOF]
        if len(data) > 1:
            fault("a packet with %s: members of one oneof (TracePacket.data), of which Perfetto keeps one"
                  % " and ".join(data))
        seq = get(pk, "trusted_packet_sequence_id")
        flags = int(get(pk, "sequence_flags", "0"))
        for field in ("interned_data", "trace_packet_defaults", "track_event"):
            if get(pk, field) is not None and not flags & SEQ_NEEDS_STATE:
                fault("a packet with %s without SEQ_NEEDS_INCREMENTAL_STATE (sequence_flags %d)" % (field, flags))
        if get(pk, "interned_data") is not None and flags != SEQ_CLEARED | SEQ_NEEDS_STATE:
            fault("interned data in a packet whose sequence_flags are %d, not 3 (cleared | needs state)" % flags)
        if flags & SEQ_CLEARED:
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
                if parent not in procs:
                    fault("thread track before its process")
                tname = get(thread, "thread_name", "")
                tid = get(thread, "tid", "0")
                if tid == "0":
                    fault('thread "%s": tid 0 (Perfetto takes it for the main thread, tid = pid)' % tname)
                if tid in tids:
                    fault('thread "%s": tid %s given twice' % (tname, tid))
                tids.add(tid)
                order = get(td, "sibling_order_rank")
                if order is None or get(thread, "legacy_sort_index") is None:
                    fault('thread "%s" without sibling_order_rank and legacy_sort_index' % tname)
                if procs[parent][1] != "EXPLICIT":
                    fault('thread "%s" under a process whose child_ordering is not EXPLICIT' % tname)
                procs[parent][2].append((int(order), int(tid), tname, uuid))
                tracks[uuid] = [tname, 0, 0]
                slices[uuid], open_slices[uuid] = [], []
                out.append('thread pid=%s tid=%s "%s" name="%s"' % (get(thread, "pid"), get(thread, "tid"), tname,
                                                                   get(td, "name", "")))
            elif proc is not None:
                if get(proc, "legacy_sort_index") is None or get(td, "sibling_order_rank") is None:
                    fault('process "%s" without legacy_sort_index and sibling_order_rank' % get(proc, "process_name"))
                procs[uuid] = [get(proc, "process_name", ""), get(td, "child_ordering"), []]
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
        argd = {}
        for a in every(te, "debug_annotations"):
            an = get(a, "name") or ann.get(get(a, "name_iid"))
            if an is None:
                fault("an annotation with an undefined name")
            v = get(a, "uint_value") or ("1" if get(a, "bool_value") == "true" else "0")
            args += " %s=%s" % (an, v)
            argd[an] = int(v)
        kind = get(te, "type")
        if kind == "TYPE_SLICE_BEGIN":
            iid = get(te, "name_iid")
            if iid not in names:
                fault("a slice with an undefined name iid %s" % iid)
            t[1] += 1
            open_slices[uuid].append((names[iid], ts, argd))
            out.append("B %d [%s] %s%s" % (ts, t[0], names[iid], args))
        elif kind == "TYPE_SLICE_END":
            t[1] -= 1
            if t[1] < 0:
                fault("an end without a begin on track %s" % t[0])
            name, start, bargs = open_slices[uuid].pop()
            slices[uuid].append((name, start, ts - start, sorted(dict(bargs, **argd).items())))
            out.append("E %d [%s]%s" % (ts, t[0], args))
        else:
            fault("an event of type %s" % kind)
    for uuid, t in tracks.items():
        if t[1]:
            fault("slices left open on track %s" % t[0])
    if chrome:
        same_as_json(procs, slices, chrome)
    print("\n".join(out))


def same_as_json(procs, slices, path):
    mine = {}
    for name, _, threads in procs.values():
        mine[name] = [(tid, tname, sorted(slices[u])) for _, tid, tname, u in sorted(threads)]
    theirs = chrome_threads(path)
    if sorted(mine) != sorted(theirs):
        fault("processes %s, the JSON's %s" % (sorted(mine), sorted(theirs)))
    for proc in mine:
        a, b = mine[proc], theirs[proc]
        if [x[:2] for x in a] != [x[:2] for x in b]:
            fault("%s: threads (tid, name) in order %s, the JSON's %s" % (proc, [x[:2] for x in a], [x[:2] for x in b]))
        for x, y in zip(a, b):
            if x[2] != y[2]:
                fault("%s %s: %d slices, not the JSON's %d, or not the same: %s against %s"
                      % (proc, x[1], len(x[2]), len(y[2]), x[2][:3], y[2][:3]))


def chrome_threads(path):
    """process name -> [(tid, thread name, sorted slices)] in thread_sort_index order."""
    with open(path, encoding="utf-8") as f:
        events = json.load(f, parse_float=Decimal)["traceEvents"]
    pname, tname, order, sl, stack = {}, {}, {}, {}, {}
    ns = lambda us: int(Decimal(us) * 1000)
    for e in events:
        key = (e["pid"], e.get("tid"))
        if e["ph"] == "M":
            if e["name"] == "process_name":
                pname[e["pid"]] = e["args"]["name"]
            elif e["name"] == "thread_name":
                tname[key] = e["args"]["name"]
            elif e["name"] == "thread_sort_index":
                order[key] = e["args"]["sort_index"]
            continue
        args = {k: (1 if v is True else v) for k, v in e.get("args", {}).items()}
        if e["ph"] == "X":
            sl.setdefault(key, []).append((e["name"], ns(e["ts"]), ns(e["dur"]), sorted(args.items())))
        elif e["ph"] == "B":
            stack.setdefault(key, []).append((e["name"], ns(e["ts"]), args))
        elif e["ph"] == "E":
            name, start, bargs = stack[key].pop()
            sl.setdefault(key, []).append((name, start, ns(e["ts"]) - start, sorted(dict(bargs, **args).items())))
    out = {}
    for key in tname:
        if key[1] == 0:
            fault("JSON thread %s: tid 0 (Perfetto's JSON importer makes it tid = pid)" % tname[key])
        if key not in order:
            fault("JSON thread %s without thread_sort_index" % tname[key])
        out.setdefault(pname[key[0]], []).append((order[key], key[1], tname[key], sorted(sl.get(key, []))))
    return {p: [x[1:] for x in sorted(v)] for p, v in out.items()}


if __name__ == "__main__":
    main()
