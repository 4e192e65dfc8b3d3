#!/usr/bin/env python3
"""The G2 mutation test: G2 must catch a wiring miss by itself.

usage: g2_mutants.py AUTOTRACE PROJECT OPDIR [--equivalent "TEXT|REASON" ...] [--write N]

PROJECT is a git work tree whose operator OPDIR (relative to PROJECT) has
just been wired (`autotrace wire OPDIR`), so that OPDIR/.autotrace/wire-undo/
holds, for each file wire changed, the original bytes (N.orig) and what wire
wrote (N.wired). The mutants are made from those bytes alone, never from
wire's own listing: each run of lines that differs between the original and
the wired text (a difflib opcode, a line-level hunk) is put back to its
original text on its own, in a copy of the project, and `autotrace gate
--only G2 OPDIR` runs there.

A mutant is killed when G2 fails (exit 1) with an error located in the file
the mutant changed, or naming that file. The layer a file belongs to is
printed with each mutant so that a survivor says which layer G2 misses.

Sample scripts (*.py) are not G2's layers but G4's and G5's: their mutants
run `gate --only G2,G4,G5` and are killed when any of them fails located in
the sample. The runtime embedded in the base header and the kernel's
MOE_TRACING_KERNEL_BEGIN/End are `check`'s: their mutants are killed when
G2 or `autotrace check OPDIR` fails.

Each killed mutant's fixes are tried too: the gate's findings (--format
json) that carry a fix (a command: `autotrace wire ...`), run as printed in
the copy with this autotrace first on PATH, must leave none of the findings
they were offered for (what remains is only findings that had no fix, and no
more of them). A fix that does not do what it says fails the mutant.

--equivalent "TEXT|REASON" names a mutant that no gate can tell from the
wired project because the program it leaves does the same job (its first
changed line starts with TEXT): it may survive, and is listed with REASON.
Only sample mutants may be declared so; a G2 layer's never.

Prints one line per mutant ("killed ..." / "SURVIVED ..." / "equivalent
..."), then "G2 layers: N mutants, K killed", "samples (G4, G5): N mutants,
K killed, E equivalent", "fixes: F of the killed offered a fix, W did what it
says" and "mutants: N, killed: K"; exits 0 when every
mutant is killed or declared equivalent, 1 otherwise, 2 when the project has
no journal (nothing was wired: not a pass).
"""
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile


def layer_of(path):
    p = path.lower()
    base = os.path.basename(p)
    if p.endswith(".py"):
        return "sample"
    if "op_kernel/" in p:
        return "kernel"
    if "aclnn" in base:
        return "aclnn"
    if "infer" in base or "proto" in base:
        return "infer"
    if "tiling" in base:
        return "tiling"
    if "op_host/" in p and ("_def" in base or base.endswith(".cpp")):
        return "op_host"
    return "binding"


def read_journal(opdir_abs):
    j = os.path.join(opdir_abs, ".autotrace", "wire-undo")
    man = os.path.join(j, "MANIFEST")
    if not os.path.isfile(man):
        return None
    out = []
    with open(man, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for line in lines[1:]:
        if not line.strip():
            continue
        idx, path = line.split("\t", 1)
        orig = os.path.join(j, idx + ".orig")
        wired = os.path.join(j, idx + ".wired")
        if not os.path.isfile(wired):
            continue
        o = open(orig, "rb").read() if os.path.isfile(orig) else b""
        w = open(wired, "rb").read()
        out.append((path, o, w))
    return out


def hunks(orig, wired):
    a = orig.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    b = wired.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        mutant = b[:j1] + a[i1:i2] + b[j2:]
        first = "".join(b[j1:j2]).strip().splitlines()
        what = first[0] if first else "(lines removed: " + "".join(a[i1:i2]).strip().splitlines()[0] + ")"
        yield j1 + 1, "".join(mutant).encode("utf-8", "surrogateescape"), what[:100]


def run(cmd, cwd):
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout.decode("utf-8", "replace") + r.stderr.decode("utf-8", "replace")


def errors(out):
    try:
        return [f for f in json.loads(out)["findings"] if f["level"] == "error"]
    except (ValueError, KeyError):
        return None


def run_out(cmd, cwd):
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return r.returncode, r.stdout.decode("utf-8", "replace")


def try_fixes(gate_cmd, work, binpath):
    """(offered, works, why): runs every distinct fix the gate offers, then the gate again."""
    rc, out = run_out(gate_cmd + ["--format", "json"], work)
    before = errors(out)
    if before is None:
        return True, False, "the json form does not parse: " + out[:200]
    fixes = sorted({f["fix"] for f in before if f["fix"]})
    if not fixes:
        return False, True, ""
    for fix in fixes:
        if not (fix.startswith("autotrace ") or fix.startswith("export ")):
            return True, False, "not a command: " + fix
    env = dict(os.environ, PATH=binpath + os.pathsep + os.environ.get("PATH", ""))
    script = " && ".join(fixes)
    r = subprocess.run(["/bin/sh", "-c", "{ " + script + '; } >&2 && exec "$@"', "sh"] + gate_cmd + ["--format", "json"],
                       cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    after = errors(r.stdout.decode("utf-8", "replace"))
    if after is None:
        return True, False, "%s failed: %s" % (script, r.stderr.decode("utf-8", "replace")[-400:])
    unfixed = [(f["rule"], f["file"]) for f in before if not f["fix"]]
    bad = [(f["rule"], f["file"], f["line"], f["message"]) for f in after if (f["rule"], f["file"]) not in unfixed]
    if bad or len(after) > len(unfixed):
        return True, False, "%s left: %s" % (script, bad or after)
    return True, True, ""


def restore(work, project, journal, opdir):
    """Puts the copy back to the wired project: the journal's files, and its .autotrace."""
    for path, orig, wired in journal:
        with open(os.path.join(work, os.path.normpath(os.path.join(opdir, path))), "wb") as f:
            f.write(wired)
    aut = os.path.join(work, opdir, ".autotrace")
    shutil.rmtree(aut, ignore_errors=True)
    shutil.copytree(os.path.join(project, opdir, ".autotrace"), aut, symlinks=True)


def located_in(text, path):
    base = os.path.basename(path)
    for line in text.splitlines():
        if ": error: " in line and (line.startswith(path + ":") or base in line):
            return True
    return False


def main():
    if len(sys.argv) < 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    autotrace, project, opdir = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    # --write N: leave mutant N (1-based, in the order listed) in PROJECT itself, for a look
    write = int(sys.argv[sys.argv.index("--write") + 1]) if "--write" in sys.argv else 0
    equivalent = {}
    for i, a in enumerate(sys.argv):
        if a == "--equivalent" and i + 1 < len(sys.argv):
            text, _, reason = sys.argv[i + 1].partition("|")
            equivalent[text] = reason
    journal = read_journal(os.path.join(project, opdir))
    if not journal:
        print("no wire journal under %s/.autotrace/wire-undo: nothing was wired" % opdir)
        return 2
    n = killed = equiv = offered = fixed = 0
    per = {"g2": [0, 0], "sample": [0, 0]}
    tmp = tempfile.mkdtemp(prefix="g2mut.")
    try:
        work = os.path.join(tmp, "p")
        shutil.copytree(project, work, symlinks=True)  # .git too: the root is its top level
        # the fixes run `autotrace ...`: this one, first on PATH
        binpath = os.path.join(tmp, "bin")
        os.mkdir(binpath)
        os.symlink(os.path.abspath(os.environ.get("AUTOTRACE_BIN", autotrace)), os.path.join(binpath, "autotrace"))
        for path, orig, wired in journal:
            # the journal's paths are the operator directory's, as wire writes them
            rel = os.path.normpath(os.path.join(opdir, path))
            target = os.path.join(work, rel)
            layer = layer_of(rel)
            for line, mutant, what in hunks(orig, wired):
                n += 1
                if write:
                    if n == write:
                        with open(os.path.join(project, rel), "wb") as f:
                            f.write(mutant)
                        print("wrote mutant %d: %s:%d  %s" % (n, rel, line, what))
                        return 0
                    continue
                with open(target, "wb") as f:
                    f.write(mutant)
                gate_cmd = [autotrace, "gate", "--only", "G2,G4,G5" if layer == "sample" else "G2", opdir]
                rc, out = run(gate_cmd, work)
                ok = rc == 1 and located_in(out, rel)
                fix_why, has = "", False
                if ok:
                    has, works, fix_why = try_fixes(gate_cmd, work, binpath)
                    offered += has
                    fixed += has and works
                    ok = works
                    restore(work, project, journal, opdir)
                if not ok and layer == "kernel":
                    rc2, out2 = run([autotrace, "check", opdir], work)
                    ok = rc2 == 1 and located_in(out2, rel)
                with open(target, "wb") as f:
                    f.write(wired)
                kind = "sample" if layer == "sample" else "g2"
                per[kind][0] += 1
                why = next((r for t, r in equivalent.items() if what.startswith(t)), None)
                if ok:
                    killed += 1
                    per[kind][1] += 1
                    print("killed     %-8s %s:%d  %s%s" % (layer, rel, line, what, "" if has else "  (no fix offered)"))
                elif why is not None and kind == "sample":
                    equiv += 1
                    print("equivalent %-8s %s:%d  %s  (%s)" % (layer, rel, line, what, why))
                else:
                    print("%s %-8s %s:%d  %s" % ("BAD FIX   " if fix_why else "SURVIVED  ", layer, rel, line, what))
                    for l in (fix_why or out).splitlines()[:6]:
                        print("    | " + l)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("G2 layers: %d mutants, %d killed" % tuple(per["g2"]))
    print("samples (G4, G5): %d mutants, %d killed, %d equivalent" % (per["sample"][0], per["sample"][1], equiv))
    print("fixes: %d of the killed offered a fix, %d did what it says" % (offered, fixed))
    print("mutants: %d, killed: %d" % (n, killed))
    return 0 if n and killed + equiv == n else 1


if __name__ == "__main__":
    sys.exit(main())
