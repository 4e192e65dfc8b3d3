#!/usr/bin/python3
# Writes a Chrome trace JSON shaped to cost `report` the most per byte
# (issue 33, rows 5 and 6): the bench (bench/bench_report_trace.sh) and the
# bounds of tests/report.test read it.
#   bench/gen_trace.py nested N [named|unnamed] > trace.json
#       N B events nested one in the other on one core, then their N E
#       events; `named` gives the core a thread_name first (its slices are
#       settled as they close), `unnamed` (the default) last (every slice
#       waits for it, as in a trace whose metadata comes at the end)
#   bench/gen_trace.py labels N > trace.json
#       N X events of N distinct labels on 8 cores of 4 ranks (processes),
#       each with an index, and the names of the cores and ranks
#   bench/gen_trace.py sparse N > trace.json
#       N X events of N distinct labels, each on a rank and a core of its
#       own (pid and tid N), with an index of its own: every per-rank,
#       per-core and per-index table sparse
# Deterministic: the same arguments write the same bytes.
import sys


def nested(n, named):
    out = sys.stdout
    out.write('{"traceEvents":[\n')
    meta = '{"ph":"M","pid":1,"tid":2,"name":"thread_name","args":{"name":"AIV 0.0"}}'
    if named:
        out.write(meta + ',\n')
    for i in range(n):
        out.write('{"ph":"B","pid":1,"tid":2,"ts":%d,"name":"level %d"},\n' % (i, i % 7))
    for i in range(n):
        out.write('{"ph":"E","pid":1,"tid":2,"ts":%d},\n' % (n + i))
    if not named:
        out.write(meta + ',\n')
    out.write('{"ph":"M","pid":1,"name":"process_name","args":{"name":"rank 0"}}\n]}\n')


def labels(n):
    out = sys.stdout
    out.write('{"traceEvents":[\n')
    for r in range(4):
        out.write('{"ph":"M","pid":%d,"name":"process_name","args":{"name":"rank %d"}},\n' % (r, r))
        for c in range(2):
            out.write('{"ph":"M","pid":%d,"tid":%d,"name":"thread_name","args":{"name":"%s %d.%d"}},\n'
                      % (r, c, "AIC" if c == 0 else "AIV", r, c))
    for i in range(n):
        out.write('{"ph":"X","pid":%d,"tid":%d,"ts":%d,"dur":1,"name":"stage%d point %d","args":{"index":%d}},\n'
                  % (i % 4, i // 4 % 2, 2 * i, i, i, i % 16))
    out.write('{"ph":"M","pid":0,"tid":0,"name":"thread_sort_index","args":{"sort_index":0}}\n]}\n')


def sparse(n):
    out = sys.stdout
    out.write('{"traceEvents":[\n')
    for i in range(n):
        out.write('{"ph":"X","pid":%d,"tid":%d,"ts":%d,"dur":1,"name":"s%d p","args":{"index":%d}},\n'
                  % (i, i, i, i, i))
    out.write('{"ph":"M","pid":0,"tid":0,"name":"thread_name","args":{"name":"AIV 0.0"}}\n]}\n')


def main(argv):
    if len(argv) < 3 or argv[1] not in ("nested", "labels", "sparse"):
        sys.stderr.write("usage: gen_trace.py nested N [named|unnamed] | labels N | sparse N\n")
        return 2
    n = int(argv[2])
    if argv[1] == "nested":
        nested(n, len(argv) > 3 and argv[3] == "named")
    elif argv[1] == "labels":
        labels(n)
    else:
        sparse(n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
