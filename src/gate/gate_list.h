/* The gates of `autotrace gate`, one row each, and the rules their findings
 * belong to. Everything that names a gate reads these lists: the report's
 * enum and per-gate results (gate.h), the run order and the check each runs
 * (gate_run.c), `gate --only/--skip` and its usage text (cmd_gate.c), the
 * report writers (gate_out_*.c) and instrument's closing report.
 *
 * Adding a gate G6: a row in GATE_LIST, its rules in GATE_RULE_LIST, the
 * check in a new file src/gate/gate_g6.c (void gate_g6(struct project_model *,
 * struct gate_report *), adding findings with gate_add), golden cases under
 * tests/gate/ and the gate's paragraph in README and autotrace(1). */
#ifndef AUTOTRACE_GATE_LIST_H
#define AUTOTRACE_GATE_LIST_H

/* When a gate runs. The gates that only read the sources go first (cheap,
 * and their findings do not wait on a build), then the gates that run the
 * team's build, then those that read what the build wrote: G1 checks the
 * stamp of the point_map.json that the build's preprocess hook writes.
 * Within a phase, in the order of GATE_LIST. `instrument` runs every gate
 * but those of GATE_BUILDS (it never runs the team's build). */
enum gate_phase { GATE_READS_SOURCES, GATE_BUILDS, GATE_READS_BUILD };

/* X(enum-suffix, check function, id, phase, title, help)
 * title: the gate's line in every report; help: what it checks, for
 * `gate --help`, lines of at most 74 columns (the usage indents them by 6)
 * joined by "\n". */
#define GATE_LIST(X)                                                                                    \
	X(G1, gate_g1, "G1", GATE_READS_BUILD, "preprocess hook and point map",                       \
	  "the build script runs 'autotrace preprocess' on the build-tree copy in\n"                  \
	  "a hook block placed right after the copy and before the build step\n"                      \
	  "(as 'hook verify'); a point_map.json found under OPDIR (or --point-map)\n"                 \
	  "has the build stamp of the current kernel sources")                                         \
	X(G2, gate_g2, "G2", GATE_READS_SOURCES, "profiling output order",                            \
	  "profiling_data is the last tensor output, in the same position and\n"                      \
	  "kind, in every layer G2 finds by the operator's names under the project\n"                \
	  "root: OpDef, infer, kernel __global__ and every Init, the runtime they\n"                  \
	  "reach, aclnn and aclnnInner, EXEC_NPU_CMD, every binding and meta\n"                       \
	  "function, every registration's schema, every call in the samples;\n"                      \
	  "REQUIRED/OPTIONAL as the rules say; no nullptr when REQUIRED")                              \
	X(G3, gate_g3, "G3", GATE_BUILDS, "build",                                                    \
	  "the build command (gate { build \"...\"; } or --build-cmd) succeeds")                       \
	X(G4, gate_g4, "G4", GATE_READS_SOURCES, "samples unpack, synchronize, save, collect",        \
	  "samples/tests unpack the op's new arity or branch on len(outs),\n"                         \
	  "synchronize before save_profiling_data, save the op's own profiling\n"                    \
	  "tensor, run the collector after the spawn has joined when they take\n"                    \
	  "--point_map/--chrome_trace; the names that code uses are bound")                            \
	X(G5, gate_g5, "G5", GATE_READS_SOURCES, "absolute paths before spawn",                       \
	  "profiling dir, chrome trace and point map paths are made absolute\n"                       \
	  "before the spawn that passes them")

/* X(enum-suffix, gate, id, short description): the rules a finding names
 * ([G2.last]), listed with their description in SARIF's rules array; a
 * gate's rules follow one another, in the order of GATE_LIST. */
#define GATE_RULE_LIST(X)                                                                                      \
	X(G1_SCRIPT, G1, "G1.script", "The build script can be found and followed")                               \
	X(G1_HOOK, G1, "G1.hook", "The build script preprocesses the build-tree copy in a hook block placed right") \
	X(G1_STALE, G1, "G1.stale", "point_map.json was written from the current sources")                         \
	X(G2_LAYER, G2, "G2.layer", "Every layer of the operator project can be read")                             \
	X(G2_MISSING, G2, "G2.missing", "Every layer has the profiling output")                                    \
	X(G2_LAST, G2, "G2.last", "The profiling output is the last tensor output")                               \
	X(G2_POSITION, G2, "G2.position", "The profiling output has the same position in every layer")            \
	X(G2_MODE, G2, "G2.mode", "The profiling output is REQUIRED or OPTIONAL as the rules' mode says")          \
	X(G2_NULL, G2, "G2.null", "A REQUIRED profiling output is never passed as nullptr or c10::nullopt")        \
	X(G2_DTYPE, G2, "G2.dtype", "The profiling output is int64 wherever its type is declared")                \
	X(G2_NAME, G2, "G2.name", "No second operator named *_profiling or *_with_profiling")                    \
	X(G2_INFER, G2, "G2.infer", "Infer sets the profiling shape and dtype unconditionally from a named bound") \
	X(G2_RUNTIME, G2, "G2.runtime", "The kernel hands the profiling tensor to the runtime and ends the recording") \
	X(G2_UNUSED, G2, "G2.unused", "Every function that receives the profiling tensor uses it")                \
	X(G2_KIND, G2, "G2.kind", "The profiling tensor has the kind each layer gives it: GM_ADDR, Tensor? = None")  \
	X(G2_CALL, G2, "G2.call", "Calls of the operator pass arguments its schema has and unpack what it returns") \
	X(G3_BUILD, G3, "G3.build", "The team's build command succeeds")                                          \
	X(G4_ARITY, G4, "G4.arity", "Calls of the operator unpack its new arity or branch on len(outs)")         \
	X(G4_SAVE, G4, "G4.save", "A sample saves the profiling output")                                          \
	X(G4_SYNC, G4, "G4.sync", "The device is synchronized before save_profiling_data")                       \
	X(G4_COLLECT, G4, "G4.collect", "The collector runs after the spawned ranks have joined")                 \
	X(G4_NAMES, G4, "G4.names", "The names the save and collect code uses are bound, its options declared")   \
	X(G5_RELATIVE, G5, "G5.relative", "Profiling paths are made absolute before the spawn that passes them")

#endif
