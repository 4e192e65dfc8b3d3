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

/* X(enum-suffix, gate, id, short description, help): the rules a finding
 * names ([G2.last]), listed in SARIF's rules array with their description
 * (shortDescription; the fullDescription adds what the gate checks, from
 * GATE_LIST) and their help, what to do about a finding (help.text, one
 * sentence); a gate's rules follow one another, in the order of GATE_LIST. */
#define GATE_RULE_LIST(X)                                                                                      \
	X(G1_SCRIPT, G1, "G1.script", "The build script can be found and followed",                              \
	  "Pass the build script with --script, or match it with the rules' build patterns (build \"GLOB\";).") \
	X(G1_HOOK, G1, "G1.hook",                                                                                  \
	  "The build script preprocesses the build-tree copy in a hook block placed right after the copy and before the build step", \
	  "Run 'autotrace hook install' on the build script, then 'autotrace hook verify'.")                       \
	X(G1_TOOL, G1, "G1.tool", "The autotrace the hook runs exists on this machine",                           \
	  "Put autotrace on the build's PATH, or set AUTOTRACE to its path in the build's environment.")           \
	X(G1_STALE, G1, "G1.stale", "point_map.json was written from the current sources",                        \
	  "Rebuild with the hooked build script, so that preprocess writes the map from the sources it compiles.") \
	X(G2_LAYER, G2, "G2.layer", "Every layer of the operator project can be read",                            \
	  "Point the rules at the layer's file (operator { ... }) or fix what keeps it from being read.")          \
	X(G2_MISSING, G2, "G2.missing", "Every layer has the profiling output",                                   \
	  "Run 'autotrace wire' to add the profiling output to the layers that lack it.")                         \
	X(G2_LAST, G2, "G2.last", "The profiling output is the last tensor output",                              \
	  "Move profiling_data after every other tensor output of the layer ('autotrace wire' does it).")          \
	X(G2_POSITION, G2, "G2.position", "The profiling output has the same position in every layer",           \
	  "Give profiling_data the same position in every layer ('autotrace wire' does it).")                     \
	X(G2_MODE, G2, "G2.mode", "The profiling output is REQUIRED or OPTIONAL as the rules' mode says",         \
	  "Declare the output as the rules' mode says, or change the mode in the rules.")                         \
	X(G2_NULL, G2, "G2.null", "A REQUIRED profiling output is never passed as nullptr or c10::nullopt",       \
	  "Pass the profiling tensor itself, or make the output OPTIONAL in the rules.")                          \
	X(G2_DTYPE, G2, "G2.dtype", "The profiling output is int64 wherever its type is declared",               \
	  "Declare the profiling output as int64 (ge::DT_INT64, at::kLong) in that layer.")                      \
	X(G2_NAME, G2, "G2.name", "No second operator named *_profiling or *_with_profiling",                   \
	  "Give the operator itself the profiling output and remove the second operator.")                       \
	X(G2_INFER, G2, "G2.infer", "Infer sets the profiling shape and dtype unconditionally from a named bound", \
	  "Set the profiling output's shape and dtype in infer on every path, from a named upper bound.")          \
	X(G2_RUNTIME, G2, "G2.runtime", "The kernel hands the profiling tensor to the runtime and ends the recording", \
	  "Call SetMoeProfilePtr with the profiling tensor in the kernel and end the recording before it returns.") \
	X(G2_UNUSED, G2, "G2.unused", "Every function that receives the profiling tensor uses it",               \
	  "Pass the profiling tensor on where the function calls the next layer, or stop passing it in.")         \
	X(G2_KIND, G2, "G2.kind", "The profiling tensor has the kind each layer gives it: GM_ADDR, Tensor? = None", \
	  "Declare the profiling tensor with the kind of its layer: GM_ADDR in the kernel, Tensor? = None in an OPTIONAL schema.") \
	X(G2_CALL, G2, "G2.call", "Calls of the operator pass arguments its schema has and unpack what it returns", \
	  "Make the call pass the schema's arguments and unpack as many values as the operator returns.")        \
	X(G3_BUILD, G3, "G3.build", "The team's build command succeeds",                                         \
	  "Fix the build error the finding quotes, then run the gate again.")                                     \
	X(G4_ARITY, G4, "G4.arity", "Calls of the operator unpack its new arity or branch on len(outs)",        \
	  "Unpack the profiling output too, or branch on len(outs), where the sample calls the operator.")        \
	X(G4_SAVE, G4, "G4.save", "A sample saves the profiling output",                                         \
	  "Call save_profiling_data with the operator's profiling output in the sample.")                         \
	X(G4_SYNC, G4, "G4.sync", "The device is synchronized before save_profiling_data",                      \
	  "Call torch_npu.npu.synchronize() before save_profiling_data.")                                         \
	X(G4_COLLECT, G4, "G4.collect", "The collector runs after the spawned ranks have joined",                \
	  "Run the collector after the spawn returns, once every rank has saved its dump.")                       \
	X(G4_NAMES, G4, "G4.names", "The names the save and collect code uses are bound, its options declared",  \
	  "Import or define the names the save and collect code uses and declare the options it reads.")          \
	X(G5_RELATIVE, G5, "G5.relative", "Profiling paths are made absolute before the spawn that passes them", \
	  "Make the path absolute with Path(p).expanduser().resolve() before the spawn.")

#endif
