/* The gate report: the gates (gate_list.h), the rules a finding belongs to,
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
#include "gate_list.h"
#include "src_file.h"

enum gate_id {
#define GATE_ENUM_(e, check, id, phase, title, help) GATE_##e,
	GATE_LIST(GATE_ENUM_)
#undef GATE_ENUM_
	GATE_COUNT
};

enum gate_rule {
#define GATE_RULE_ENUM_(e, g, id, desc, help) GATE_RULE_##e,
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
	char *src_line;       /* the line's text, without its newline, cut around the
	                         column as diag cuts a long one (DIAG_CUT at a cut side) */
	size_t caret_len;     /* characters to underline (>= 1) */
	size_t src_col;       /* where the caret stands in src_line (1-based characters) */
	size_t src_len;       /* characters to underline there (>= 1) */
};

struct gate_finding {
	enum gate_rule rule;
	enum diag_level level;        /* DIAG_ERROR fails the gate; warnings and notes do not */
	struct gate_loc loc;
	char *message;
	char *hint;                   /* how to fix it, in words, or NULL */
	char *fix;                    /* a command that fixes it, run as printed in the
	                                 directory gate ran from, or NULL: none is known */
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
	char *root;                   /* the project root, absolute (SARIF's %SRCROOT%), or NULL */
	struct gate_finding *v;
	size_t n, cap;
	struct gate_result gates[GATE_COUNT];
};

struct gate_report *gate_report_new(const char *opdir);
void gate_report_free(struct gate_report *r);
/* Sets the report's anchor file (copied). */
void gate_report_set_anchor(struct gate_report *r, const char *path);
/* Sets the report's project root (absolute, copied). */
void gate_report_set_root(struct gate_report *r, const char *abs);

const char *gate_name(enum gate_id g);
const char *gate_title(enum gate_id g);
enum gate_id gate_rule_gate(enum gate_rule rule);
const char *gate_rule_id(enum gate_rule rule);
const char *gate_rule_description(enum gate_rule rule);
/* What to do about a finding of `rule`, one sentence. */
const char *gate_rule_help(enum gate_rule rule);
const char *gate_status_name(enum gate_status s);

/* A location in `f`: the range [start, end), underlined on its first line. */
struct gate_loc gate_loc_at(const struct src_file *f, uint32_t start, uint32_t end);
void gate_loc_release(struct gate_loc *l);
/* A location known by path (and maybe line) only. */
struct gate_loc gate_loc_path(const char *path, size_t line, size_t col);

/* Adds a finding (the report takes `loc`; the words of `hint` may be NULL).
 * Returns it so that a command that fixes it or a related location can be
 * attached. */
struct gate_finding *gate_add(struct gate_report *r, enum gate_rule rule, enum diag_level level, struct gate_loc loc,
			      const char *hint, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The command that fixes the finding (copied; NULL: none). */
void gate_set_fix(struct gate_finding *f, const char *command);
void gate_relate(struct gate_finding *f, struct gate_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Turns a diag into a collector of findings for `rule` (messages at error
 * level and below keep their level). Used to take the findings of shared
 * checks such as hook_verify. The command `fix` and the words `hint` are
 * attached to each; either may be NULL. A note with no location right after an error says better for that
 * error: "run: COMMAND" is its fix; other words are its hint, and the error
 * has no command (the check says the default one would not do). */
struct gate_diag_capture {
	struct gate_report *report;
	enum gate_rule rule;
	const char *fix;              /* the command attached to each, or NULL */
	const char *hint;             /* the words attached to each, or NULL */
	size_t last;                  /* 1 + the index of the last finding added, 0: none */
};
void gate_diag_capture(struct diag *d, struct gate_diag_capture *cap);

/* An error about the sources (or the project), as opposed to one about this
 * machine (G1.tool: the autotrace the hook runs is not on the build's PATH),
 * which is for whoever builds here and no defect of the edits. */
bool gate_finding_about_sources(const struct gate_finding *f);

/* Errors of `gate`, passed/failed from the findings of the gates that ran. */
unsigned gate_errors(const struct gate_report *r, enum gate_id g);
void gate_settle(struct gate_report *r);

#endif
