#!/usr/bin/python3
# Checks the DOM that chromium --dump-dom gave of a `report --format html`
# page against `report --format json` of the same input (tests/report_html.test):
#   report_html_dom.py DOM.html PAGE.html LABELS.json VIEWS.json
# DOM.html is the document after the page's script ran; PAGE.html the file as
# written (for what a browser would fetch); LABELS.json `report -f json`;
# VIEWS.json `report --by all -f json`. Prints one line per failed check and
# exits 1 when there is one.
import html.parser
import json
import re
import sys


class Dom(html.parser.HTMLParser):
    """The elements, each (tag, attrs, text, parents' tags), in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "attrs": dict(attrs), "text": "", "children": []}
        if self.stack:
            self.stack[-1]["children"].append(e)
        self.elements.append(e)
        if tag not in ("meta", "br", "img", "link", "input"):
            self.stack.append(e)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        for e in self.stack:
            e["text"] += data


def walk(e):
    yield e
    for c in e["children"]:
        yield from walk(c)


def classes(e):
    return e["attrs"].get("class", "").split()


problems = []


def check(cond, what):
    if not cond:
        problems.append(what)
    return cond


def same_value(dom_v, want):
    if isinstance(want, str):
        return dom_v == want
    try:
        return abs(float(dom_v) - float(want)) <= 1e-9 * max(1.0, abs(float(want)))
    except ValueError:
        return False


def main():
    dom_path, page_path, labels_path, views_path = sys.argv[1:5]
    dom = Dom()
    dom.feed(open(dom_path, encoding="utf-8").read())
    page = open(page_path, encoding="utf-8").read()
    labels = json.load(open(labels_path))
    views = json.load(open(views_path))
    tables = dict(views)
    tables["labels"] = labels
    els = dom.elements

    body = [e for e in els if e["tag"] == "body"]
    check(body and body[0]["attrs"].get("data-ready") == "1",
          "the page's script did not run to its end (no data-ready on <body>)")

    # self-contained: nothing to fetch
    for e in els:
        for a in ("src", "href"):
            check(a not in e["attrs"], "<%s %s=%r>: the page fetches something" % (e["tag"], a, e["attrs"].get(a)))
        check(e["tag"] not in ("link", "iframe", "img", "object"), "a <%s> element" % e["tag"])
    for url in re.findall(r"https?://[^\s\"'<>)]*", page):
        check(url == "http://www.w3.org/2000/svg", "an address in the page: %s" % url)

    # the flame graph: per core type, its outermost boxes sum to the kind's total, and
    # each outermost box is as long as its label's total on that core type
    kinds = [e for e in els if "flame-kind" in classes(e)]
    check(len(kinds) >= 1, "no flame graph (g.flame-kind)")
    label_total = {(r["label"], r["core"]): r["total_ns"] for r in labels}
    for k in kinds:
        core = k["attrs"].get("data-core")
        roots = [n for n in walk(k) if "node" in classes(n) and n["attrs"].get("data-depth") == "0"]
        check(roots, "flame graph %s: no outermost box" % core)
        check(sum(int(n["attrs"]["data-total-ns"]) for n in roots) == int(k["attrs"]["data-total-ns"]),
              "flame graph %s: the outermost boxes do not sum to its total" % core)
        for n in roots:
            lab = n["attrs"]["data-label"]
            check(int(n["attrs"]["data-total-ns"]) == label_total.get((lab, core)),
                  "flame graph %s: %r is %s ns, the labels table says %s" % (
                      core, lab, n["attrs"]["data-total-ns"], label_total.get((lab, core))))
    boxes = [n for n in els if "node" in classes(n)]
    check(any(n["attrs"].get("data-wait") == "1" for n in boxes) == bool(
        [r for r in views["by_stage"] if r["wait_ns"] > 0]),
        "flame graph: boxes drawn as waiting, yet the wait share says otherwise (or the reverse)")

    # the heatmap: a row per label and core type, in the labels table's order; its data
    # per rank sums to the label's total
    hm = [e for e in els if e["attrs"].get("id") == "heatmap"]
    check(hm, "no heatmap (svg#heatmap)")
    rows = [e for e in els if "heat-row" in classes(e)]
    check([(r["attrs"]["data-label"], r["attrs"]["data-core"]) for r in rows] ==
          [(r["label"], r["core"]) for r in labels], "heatmap rows are not the labels table's rows")
    data = [e for e in els if e["attrs"].get("id") == "heatmap-data"]
    if check(data, "no heatmap data"):
        d = json.loads(data[0]["text"])
        ranks = sorted({r["slowest"] for r in views["by_rank"]})
        check(set(ranks) <= set(d["ranks"]), "heatmap ranks %s miss the slowest ranks %s" % (d["ranks"], ranks))
        for r in d["rows"]:
            check(sum(r["ns"]) == label_total.get((r["label"], r["core"])),
                  "heatmap %r (%s): its ranks sum to %d ns, the labels table says %s" % (
                      r["label"], r["core"], sum(r["ns"]), label_total.get((r["label"], r["core"]))))

    # every table, cell by cell, as report --format json has it
    for name, want in tables.items():
        t = [e for e in els if e["tag"] == "table" and e["attrs"].get("data-table") == name]
        if not check(t, "no table %s" % name):
            continue
        heads = [e["attrs"]["data-key"] for e in walk(t[0]) if e["tag"] == "th"]
        trs = [e for e in walk(t[0]) if e["tag"] == "tr" and any(c["tag"] == "td" for c in e["children"])]
        check(len(trs) == len(want), "table %s: %d rows, the JSON has %d" % (name, len(trs), len(want)))
        for i, (tr, row) in enumerate(zip(trs, want)):
            check(heads == list(row.keys()), "table %s: columns %s, the JSON has %s" % (name, heads, list(row)))
            cells = [c for c in tr["children"] if c["tag"] == "td"]
            for key, c in zip(heads, cells):
                check(same_value(c["attrs"].get("data-v"), row.get(key)),
                      "table %s row %d %s: %r in the page, %r in the JSON" % (
                          name, i, key, c["attrs"].get("data-v"), row.get(key)))
    for p in problems[:40]:
        print(p)
    if len(problems) > 40:
        print("... and %d more" % (len(problems) - 40))
    print("%d elements, %d tables checked, %d problems" % (len(els), len(tables), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
