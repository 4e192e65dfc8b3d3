#!/usr/bin/env python3
"""Reads `autotrace scan` JSON of an instrumented tree on stdin and prints one
line per trace point that sits where the policy says points never go:
  - inside a loop that has no point of its own (a tile-level loop: the loop
    body does not open with a B point), or
  - around one statement that only does intra-core pipe synchronisation
    (SetFlag / WaitFlag / PipeBarrier, or a SyncFunc / SetWaitFlag helper).
Exit status 1 when there is any. Used by tests/corpus.test."""
import json
import re
import sys

LOOPS = {'for', 'while', 'do'}
PIPE = re.compile(r'^(SetFlag|WaitFlag|PipeBarrier)$|SyncFunc|SetWaitFlag')


def main():
    bad = 0
    for f in json.load(sys.stdin)['files']:
        for fn in f['functions']:
            st = fn['statements']
            pts = [p for p in fn['points'] if p.get('label') is not None]
            point_stmt = {p['stmt']: p for p in pts if p.get('stmt') is not None}
            calls = {}
            for c in fn['calls']:
                calls.setdefault(c.get('stmt'), []).append(c['name'])
            children = {}
            for s in st:
                children.setdefault(s['parent'], []).append(s['id'])

            def timed(loop):
                kids = children.get(loop, [])
                return bool(kids) and kids[0] in point_stmt and point_stmt[kids[0]]['event'] == 'B'

            for p in pts:
                if p['event'] != 'B' or p.get('stmt') is None:
                    continue
                s = st[p['stmt']]
                a = s['parent']
                while a is not None and st[a]['kind'] not in LOOPS:
                    a = st[a]['parent']
                if a is not None and not timed(a):
                    print('%s:%d: %r is inside the untimed loop at line %d' % (f['path'], p['line'], p['label'], st[a]['line']))
                    bad += 1
                # B, one statement, E of the same label: what does that statement call?
                sib = children.get(s['parent'], [])
                i = sib.index(s['id'])
                if i + 2 < len(sib):
                    mid, after = sib[i + 1], sib[i + 2]
                    e = point_stmt.get(after)
                    names = calls.get(mid, [])
                    if e and e['label'] == p['label'] and e['event'] == 'E' and names and all(PIPE.search(n) for n in names):
                        print('%s:%d: %r times only pipe synchronisation (%s)' % (f['path'], p['line'], p['label'], ', '.join(names)))
                        bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
