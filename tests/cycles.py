#!/usr/bin/env python3
"""cycles.py NM-OUTPUT: the link-level cycles between the library's files.

Reads the output of `nm libautotrace.a` (a "FILE.o:" line before each
member's symbols), draws an edge from each member to every member that
defines a symbol it uses, and prints every cycle (a strongly connected set
of two members or more) with the edges inside it. The one cycle allowed is
the C++ parser's recursive descent (members named cxx_parser_*). Exit 1
when there is another, 2 when the input holds no member (nothing read is
not a pass)."""
import collections
import re
import sys

ALLOWED = re.compile(r"^cxx_parser_")


def members(text):
    defs, uses, cur = {}, collections.defaultdict(set), None
    for line in text.splitlines():
        m = re.match(r"^(\S+)\.o:$", line)
        if m:
            cur = m.group(1)
            uses[cur]
            continue
        parts = line.split()
        if cur is None or not parts:
            continue
        if len(parts) == 3 and parts[1] in "TDRBCV":
            defs[parts[2]] = cur
        elif len(parts) == 2 and parts[0] == "U":
            uses[cur].add(parts[1])
    graph = collections.defaultdict(dict)
    for m, syms in uses.items():
        for s in syms:
            d = defs.get(s)
            if d and d != m:
                graph[m].setdefault(d, []).append(s)
    return list(uses), graph


def sccs(nodes, graph):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(100000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def main():
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    nodes, graph = members(text)
    if not nodes:
        print("cycles.py: no member in the nm output")
        return 2
    bad = 0
    for comp in sccs(nodes, graph):
        if all(ALLOWED.match(m) for m in comp):
            continue
        bad += 1
        print("cycle: " + " ".join(comp))
        for a in comp:
            for b in sorted(graph[a]):
                if b in comp:
                    print("    %s -> %s (%s)" % (a, b, ", ".join(sorted(graph[a][b]))))
    print("%d members, %d cycle%s besides the parser's recursive descent"
          % (len(nodes), bad, "" if bad == 1 else "s"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
