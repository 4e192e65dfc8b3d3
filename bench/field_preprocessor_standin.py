#!/usr/bin/python3
# OUR STAND-IN for the field's trace_preprocessor.py, for benchmarks only
# (bench/bench_preprocess_field.sh). The field's script is not available to
# this project; only its calls are (`trace_preprocessor.py SRC OUT --modify`
# in the build scripts of vllm-w4a8/after). This reconstructs its design as
# DESIGN.md describes it, and nothing more: walk the tree (os.walk order),
# regex-replace every TRACE_POINT("label", "B"|"E") with the next id (comments
# and strings included, labels lowercased), write each changed file back in
# place with --modify, and write OUT/point_map.json. It checks nothing.
# Each line is matched on its own, which gives the point's line number as the
# map needs it: the direct way to write such a script (an earlier session
# measured the field's preprocessor at about 57 MB/s, which this matches).
# --whole-file instead matches each file at once and counts the lines up to
# each match: an optimistic variant, faster than a script needs to be.
#   field_preprocessor_standin.py SRC OUT [--modify] [--whole-file]
import json
import os
import re
import sys

POINT = re.compile(r'TRACE_POINT\s*\(\s*"([^"]*)"\s*,\s*"([BE])"\s*\)')
EXTS = (".h", ".hpp", ".hh", ".cpp", ".cc", ".c", ".cxx", ".inl")


def main():
    src, out = sys.argv[1], sys.argv[2]
    modify = "--modify" in sys.argv[3:]
    whole_file = "--whole-file" in sys.argv[3:]
    points = {}
    event_ids = {}
    next_id = [1]
    for root, _dirs, files in os.walk(src):
        for name in files:
            if not name.endswith(EXTS):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
            rel = os.path.relpath(path, src)

            def point(m, lineno):
                label, ev = m.group(1).lower(), m.group(2)
                pid = next_id[0]
                next_id[0] += 1
                eid = event_ids.setdefault(label, len(event_ids) + 1)
                points[str(pid)] = {"label": label, "event_type": ev, "event_id": eid, "file": rel, "line": lineno}
                return str(pid)

            if whole_file:
                line_at = [0, 1]  # offset counted up to, line there

                def repl(m):
                    line_at[1] += text.count("\n", line_at[0], m.start())
                    line_at[0] = m.start()
                    return point(m, line_at[1])

                new = POINT.sub(repl, text)
            else:
                lines = text.splitlines(True)
                for i, line in enumerate(lines):
                    lines[i] = POINT.sub(lambda m: point(m, i + 1), line)
                new = "".join(lines)
            if modify and new != text:
                with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(new)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "point_map.json"), "w") as f:
        json.dump(points, f, indent=2)
    print("%d points" % len(points))


if __name__ == "__main__":
    main()
