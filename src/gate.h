/* The gate report: gates G1-G5 (DESIGN §2), the rules a finding belongs to,
 * findings with resolved locations (path, line, column, the source line for
 * the caret) and what each gate came to. Findings keep copies of everything
 * they show, so the files they point into may be freed before the report is
 * printed. The report owns all of it; gate_report_free releases it. */
#ifndef AUTOTRACE_GATE_H
#define AUTOTRACE_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "src_file.h"

/* X(enum-suffix, id, title) */
#define GATE_LIST(X)                                         \
	X(G1, "G1", "preprocess hook and point map")             \
	X(G2, "G2", "profiling output order")                    \
	X(G3, "G3", "build")                                     \
	X(G4, "G4", "samples unpack, synchronize, save, collect") \
	X(G5, "G5", "absolute paths before spawn")

enum gate_id {
#define GATE_ENUM_(e, id, title) GATE_##e,
	GATE_LIST(GATE_ENUM_)
#undef GATE_ENUM_
	GATE_COUNT
};

/* X(enum-suffix, gate, id, short description): one list for the enum, the
 * SARIF rules array and the documentation. */
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
	X(G3_BUILD, G3, "G3.build", "The team's build command succeeds")                                          \
	X(G4_ARITY, G4, "G4.arity", "Calls of the operator unpack its new arity or branch on len(outs)")         \
	X(G4_SAVE, G4, "G4.save", "A sample saves the profiling output")                                          \
	X(G4_SYNC, G4, "G4.sync", "The device is synchronized before save_profiling_data")                       \
	X(G4_COLLECT, G4, "G4.collect", "The collector runs after the spawned ranks have joined")                 \
	X(G5_RELATIVE, G5, "G5.relative", "Profiling paths are made absolute before the spawn that passes them")

enum gate_rule {
#define GATE_RULE_ENUM_(e, g, id, desc) GATE_RULE_##e,
	GATE_RULE_LIST(GATE_RULE_ENUM_)
#undef GATE_RULE_ENUM_
	GATE_RULE_COUNT
};

enum gate_status { GATE_PASSED, GATE_FAILED, GATE_SKIPPED };

/* A location resolved for printing. `path` NULL: none; `line` 0: the file as
 * a whole; `src_line` NULL: no caret. */
struct gate_loc {
	char *path;
	size_t line, col;
	char *src_line;       /* the line's text, without its newline */
	size_t caret_len;     /* characters to underline (>= 1) */
};

struct gate_finding {
	enum gate_rule rule;
	enum diag_level level;        /* DIAG_ERROR fails the gate; warnings and notes do not */
	struct gate_loc loc;
	char *message;
	char *fix;                    /* how to fix it, or NULL */
	struct gate_loc related;      /* a second location (G5: where the value comes from) */
	char *related_message;
};

struct gate_result {
	enum gate_status status;
	bool run;                     /* selected by --only / --skip */
	char *note;                   /* skip reason, build log, ...; may be NULL */
};

struct gate_report {
	char *opdir;
	char *anchor;                 /* the file that stands for the operator where a finding
	                                 has no location of its own (SARIF needs one), or NULL */
	struct gate_finding *v;
	size_t n, cap;
	struct gate_result gates[GATE_COUNT];
};

struct gate_report *gate_report_new(const char *opdir);
void gate_report_free(struct gate_report *r);
/* Sets the report's anchor file (copied). */
void gate_report_set_anchor(struct gate_report *r, const char *path);

const char *gate_name(enum gate_id g);
const char *gate_title(enum gate_id g);
enum gate_id gate_rule_gate(enum gate_rule rule);
const char *gate_rule_id(enum gate_rule rule);
const char *gate_rule_description(enum gate_rule rule);
const char *gate_status_name(enum gate_status s);

/* A location in `f`: the range [start, end), underlined on its first line. */
struct gate_loc gate_loc_at(const struct src_file *f, uint32_t start, uint32_t end);
void gate_loc_release(struct gate_loc *l);
/* A location known by path (and maybe line) only. */
struct gate_loc gate_loc_path(const char *path, size_t line, size_t col);

/* Adds a finding (the report takes `loc`; `fix` may be NULL). Returns it so
 * that a related location can be attached. */
struct gate_finding *gate_add(struct gate_report *r, enum gate_rule rule, enum diag_level level, struct gate_loc loc,
			      const char *fix, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void gate_relate(struct gate_finding *f, struct gate_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Turns a diag into a collector of findings for `rule` (messages at error
 * level and below keep their level). Used to take the findings of shared
 * checks such as hook_verify. `fix` is attached to each; may be NULL. A
 * note with no location right after an error is that error's fix instead. */
struct gate_diag_capture {
	struct gate_report *report;
	enum gate_rule rule;
	const char *fix;
	size_t last;                  /* 1 + the index of the last finding added, 0: none */
};
void gate_diag_capture(struct diag *d, struct gate_diag_capture *cap);

/* Errors of `gate`, passed/failed from the findings of the gates that ran. */
unsigned gate_errors(const struct gate_report *r, enum gate_id g);
void gate_settle(struct gate_report *r);

#endif
