"""Layer by layer, how `autotrace instrument` wired vllm-w4a8's dispatch_ffn_combine_w4_a8,
compared with how the expert wired it by hand (the corpus's after/ tree): the profiling tensor's
neighbours in every parameter and argument list, the schema, the infer index, the hook's place and
the test's flow. Prints TAP lines ("ok - ..." / "not ok - ...", "# ..." notes).

    python3 vllm_layers.py BEFORE OURS AFTER
"""
import ast
import os
import re
import sys

BEFORE, OURS, AFTER = sys.argv[1:4]
OP = "csrc/mc2/dispatch_ffn_combine_w4_a8"
PROF = re.compile(r"profiling_?[dD]ata\w*")
failed = 0


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


def report(ok, what, why=""):
    global failed
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        failed += 1
        for line in str(why).splitlines():
            print("# " + line)


def arg_lists(text, name):
    """The argument lists following `name(` (calls, declarations, definitions), split at top-level commas."""
    lists = []
    for m in re.finditer(r"\b%s\s*\(" % re.escape(name), text):
        i, depth, start, items, quote = m.end(), 1, m.end(), [], None
        while i < len(text) and depth:
            c = text[i]
            if quote:
                if c == quote and text[i - 1] != "\\":
                    quote = None
            elif c in "\"'":
                quote = c
            elif c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    items.append(text[start:i])
            elif c == "," and depth == 1:
                items.append(text[start:i])
                start = i + 1
            i += 1
        lists.append([" ".join(x.split()) for x in items])
    return lists


def last_ident(item):
    names = re.findall(r"[A-Za-z_]\w*", item)
    return names[-1] if names else ""


def neighbours(items):
    """(before, after) of the profiling item, by their last identifiers; None when absent."""
    for k, item in enumerate(items):
        if PROF.search(last_ident(item)) or PROF.fullmatch(item.strip()):
            return (last_ident(items[k - 1]) if k else None, last_ident(items[k + 1]) if k + 1 < len(items) else None)
    return None


def same_neighbours(what, rel, name, pick=lambda lists: lists):
    ours = [neighbours(x) for x in pick(arg_lists(read(OURS, rel), name)) if neighbours(x)]
    expert = [neighbours(x) for x in pick(arg_lists(read(AFTER, rel), name)) if neighbours(x)]
    report(ours and ours == expert, "%s: profiling between the same neighbours as the expert's %s" % (what, expert),
           "ours %s, the expert's %s" % (ours, expert))


# --- op_host: the OpDef output ---
rel = OP + "/op_host/dispatch_ffn_combine_w4_a8_def.cpp"
for tree, who in ((OURS, "ours"), (AFTER, "the expert's")):
    outs = re.findall(r'this->Output\("(\w+)"\)', read(tree, rel))
    report(outs and outs[-1] == "profiling_data", "OpDef (%s): profiling_data is the last output %s" % (who, outs))
pt = [re.search(r'Output\("profiling_data"\)\s*\.ParamType\((\w+)\)', read(t, rel)).group(1) for t in (OURS, AFTER)]
report(pt[0] == pt[1] == "OPTIONAL", "OpDef: ParamType %s as the expert's %s (mode A)" % (pt[0], pt[1]))
n = [len(re.search(r'Output\("profiling_data"\)[^;]*?\.DataType\(\{([^}]*)\}', read(t, rel), re.S).group(1).split(","))
     for t in (OURS, AFTER)]
report(n[0] == n[1] == 8, "OpDef: %d INT64 data types, as many as the other outputs (the expert's: %d)" % tuple(n))

# --- proto: infer ---
rel = OP + "/op_host/dispatch_ffn_combine_w4_a8_proto.cpp"
for tree, who in ((OURS, "ours"), (AFTER, "the expert's")):
    t = read(tree, rel)
    idx = re.search(r"OUTPUT_PROFILING_DATA\s*=\s*(\d+)", t)
    report(idx and idx.group(1) == "2" and "SetDimNum(1)" in t and
           re.search(r"SetOutputDataType\(OUTPUT_PROFILING_DATA,\s*ge::DT_INT64\)", t),
           "infer (%s): output 2 gets a 1-D shape and ge::DT_INT64" % who)

# --- aclnn: declarations, definition, forwarding call ---
for rel in (OP + "/op_host/op_api/aclnn_dispatch_ffn_combine_w4_a8.h", OP + "/op_host/op_api/aclnn_dispatch_ffn_combine_w4_a8.cpp"):
    for fn in ("aclnnDispatchFFNCombineW4A8GetWorkspaceSize", "aclnnInnerDispatchFFNCombineW4A8GetWorkspaceSize"):
        if fn in read(BEFORE, rel):
            same_neighbours("aclnn %s (%s)" % (fn, os.path.basename(rel)), rel, fn)

# --- the kernel entry, its Init call, declaration and definition ---
rel = OP + "/op_kernel/dispatch_ffn_combine_w4_a8.cpp"
same_neighbours("kernel entry", rel, "dispatch_ffn_combine_w4_a8")
ours_inc = '#include "dispatch_ffn_combine_w4_a8_base.h"' in read(OURS, rel)
report(ours_inc and '#include "dispatch_ffn_combine_w4_a8_base.h"' in read(AFTER, rel),
       "kernel entry includes dispatch_ffn_combine_w4_a8_base.h, as the expert's")
init = [neighbours(x) for x in arg_lists(read(OURS, rel), "Init")] + \
       [neighbours(x) for x in arg_lists(read(OURS, OP + "/op_kernel/dispatch_ffn_combine_w4_a8.h"), "Init")]
report(init and all(x == ("expertTokenNums", "workspaceGM") for x in init),
       "Init: the call, the class's declaration and the definition take it after expertTokenNums %s" % init)
# the declaration and the definition type it as their GM parameters (never as the tiling pointer)
decls = [x for x in arg_lists(read(OURS, OP + "/op_kernel/dispatch_ffn_combine_w4_a8.h"), "Init")
         if any("profilingData" in i for i in x)]
types = [re.sub(r"\s+", " ", i.replace("profilingData", "")).strip() for x in decls for i in x if "profilingData" in i]
report(len(decls) == 2 and types == ["GM_ADDR", "GM_ADDR"],
       "Init: the new parameter is typed GM_ADDR like the GM parameters around it %s" % types)
if not any(neighbours(x) for x in arg_lists(read(AFTER, rel), "Init")):
    print("# note: the expert passes no profiling tensor to Init (the entry sets the pointer); the checklist's G2"
          " lists the class Init, so autotrace does")

# --- the base header: the runtime ---
rel = OP + "/op_kernel/dispatch_ffn_combine_w4_a8_base.h"
t = read(OURS, rel)
report(not os.path.exists(os.path.join(BEFORE, rel)) and os.path.exists(os.path.join(AFTER, rel)) and
       "AUTOTRACE-RUNTIME-BEGIN" in t and "MoeTracing(" in t and "g_moeTracingStateCube" in t,
       "base header created as the expert did, with the runtime (split-core state names)")

# --- the torch adapter, binding schema and meta function ---
rel = "csrc/mc2/dispatch_ffn_combine/dispatch_ffn_combine_torch_adpt.h"
same_neighbours("torch adapter dispatch_ffn_combine()", rel, "dispatch_ffn_combine")
for api in ("aclnnDispatchFFNCombineW4A8", "aclnnDispatchFFNCombine", "aclnnDispatchFFNCombineBF16"):
    ex = [x for x in arg_lists(read(OURS, rel), "EXEC_NPU_CMD") if x and x[0] == api]
    ee = [x for x in arg_lists(read(AFTER, rel), "EXEC_NPU_CMD") if x and x[0] == api]
    report(ex == ee, "torch adapter: EXEC_NPU_CMD(%s, ...) as the expert's (%s)" %
           (api, "profiling_data last" if ex and PROF.search(ex[0][-1]) else "unchanged"), "ours %s\nexpert %s" % (ex, ee))
rel = "csrc/torch_binding.cpp"
for t, who in ((OURS, "ours"), (AFTER, "the expert's")):
    body = read(t, rel)
    i = body.index("dispatch_ffn_combine(Tensor x")
    text = "".join(re.findall(r'"([^"]*)"', body[i - 1:body.index(");", i)]))
    args = [" ".join(a.split()) for a in text[text.index("(") + 1:text.index(") ->")].split(",")]
    k = [j for j, a in enumerate(args) if "profiling_data" in a]
    report(k and args[k[0]] == "Tensor? profiling_data=None" and args[k[0] - 1].startswith("Tensor? x_active_mask") and
           args[k[0] + 1].startswith("float swiglu_limit") and text.endswith("-> (Tensor out, Tensor expert_token_nums)"),
           "schema (%s): 'Tensor? profiling_data=None' after x_active_mask, returns unchanged" % who, args)
same_neighbours("meta function", "csrc/torch_binding_meta.cpp", "dispatch_ffn_combine_meta")

# --- the build script: the hook right before `bash build.sh`, where the expert put it ---
rel = "csrc/build_aclnn.sh"
for tree, who, mark in ((OURS, "ours", "_autotrace_tree="), (AFTER, "the expert's", "trace_preprocessor")):
    lines = read(tree, rel).splitlines()
    end = [k for k, l in enumerate(lines) if l.strip().startswith("# TRACE_PREPROCESSOR_HOOK_END")]
    build = [k for k, l in enumerate(lines) if l.strip().startswith("bash build.sh")]
    block = "\n".join(lines[:end[0]]) if end else ""
    nxt = next((k for k in range(end[0] + 1, len(lines)) if lines[k].strip()), None) if end else None
    report(end and build and build[0] == nxt and mark in block,
           "build_aclnn.sh (%s): the preprocessor block ends right before 'bash build.sh'" % who)
t = read(OURS, rel)
report('_autotrace_tree="${ROOT_DIR}/csrc/mc2/dispatch_ffn_combine_w4_a8"' in t,
       "build_aclnn.sh: the block preprocesses the operator as the build step sees it (${ROOT_DIR}/csrc/...)")

# --- the e2e test ---
rel = "tests/e2e/nightly/single_node/ops/multicard_ops_a3/test_dispatch_ffn_combine_w4a8.py"
for tree, who in ((OURS, "ours"), (AFTER, "the expert's")):
    t = read(tree, rel)
    ok = True
    try:
        ast.parse(t)
    except SyntaxError as e:
        ok = False
    calls = [m.start() for m in re.finditer(r"profiling_data=", t)]
    sync = [m.start() for m in re.finditer(r"torch_npu\.npu\.synchronize\(\)", t)]
    save = [m.start() for m in re.finditer(r"save_profiling_data\(", t)]
    report(ok and calls and save and any(s < save[-1] for s in sync) and "self.rank" in t[save[-1]:save[-1] + 200] and
           "expanduser().resolve()" in t and re.search(r"\.join\(\)[\s\S]*(collect|TRACE_COLLECTOR)", t),
           "e2e test (%s): passes profiling_data, synchronizes, saves with self.rank, absolute paths, collects after "
           "the join" % who)

# --- the kernel's trace points (the planner's) ---
rel = OP + "/op_kernel/dispatch_ffn_combine_w4_a8_kernel.hpp"
report("MoeTracing(TRACE_POINT(" in read(OURS, rel), "kernel .hpp: trace points, as in the expert's")
sys.exit(1 if failed else 0)
