/* The policy: what a rules file (with its includes) means once checked.
 * Everything the other commands read from the rules is here. Owned by the
 * struct; rule_policy_free releases all of it. */
#ifndef AUTOTRACE_RULE_POLICY_H
#define AUTOTRACE_RULE_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "cmake_defines.h"
#include "rule_regex.h"
#include "rule_template.h"
#include "src_file.h"

/* A string setting and where it was last set (loc.file NULL: the default). */
struct rule_str {
	char *value;
	struct src_loc loc;
};

/* A list setting; a later statement replaces the whole list. */
struct rule_strlist {
	char **v;
	size_t n;
	struct src_loc loc;
};

struct rule_define {
	char *name;
	char *value;   /* "1" when not given; NULL for undef */
	struct src_loc loc;
};

/* AUTO: decided per project from its binding (see project_model.h). */
enum rule_mode { RULE_MODE_REQUIRED, RULE_MODE_OPTIONAL, RULE_MODE_AUTO };

/* Kinds of trace rules, in one list for the enum, names and `reset`. */
#define RULE_KINDS(X) X(phase) X(function) X(loop) X(branch) X(wrap) X(region) X(hot) X(skip) X(merge) X(transparent)

enum rule_kind {
#define X(n) RULE_##n,
	RULE_KINDS(X)
#undef X
	RULE_KIND_COUNT
};

/* What a phase, skip, merge or transparent rule is matched against (region:
 * a run of statements, `phase "NAME" region from /RE/ [to /RE/]`). */
#define RULE_TARGETS(X) X(function) X(loop) X(branch) X(call) X(file) X(region)

enum rule_target {
#define X(n) RULE_TARGET_##n,
	RULE_TARGETS(X)
#undef X
	RULE_TARGET_COUNT
};

/* An `in function /RE/ { ... }` or `in file /RE/ { ... }` block: the rules
 * written in it apply only to code of matching functions (files); blocks
 * nest (`up`), and every level must match. Owned by the policy. */
struct rule_in {
	enum rule_target target;      /* function or file */
	struct rule_regex *match;
	const struct rule_in *up;     /* the enclosing block, or NULL */
	struct src_loc loc;
};

/* The largest N of `/RE/ #N`. */
enum { RULE_NTH_MAX = 10000 };

struct rule_trace_rule {
	enum rule_kind kind;
	enum rule_target target;      /* phase, skip, merge, transparent; the implied one otherwise */
	struct rule_regex *match;     /* what selects the construct (NULL: only `calls` does);
				       * region, phase region: the first statement */
	struct rule_regex *until;     /* region: the last statement; phase region: the
				       * last, or NULL (to the end of the block) */
	unsigned nth;                 /* wrap, hot, region from: `/RE/ #N`, only the N-th match of
				       * each function body in source order (0: every match) */
	unsigned until_nth;           /* region to: the same */
	bool until_end;               /* region `to end`: to the last statement of the block */
	bool from_after;              /* region `after /RE/`: from the statement after the one matched */
	bool mark;                    /* hot `mark`: B and E together before the call (an instant) */
	struct rule_regex *calls;     /* function, loop, branch: a call in the construct's own
				       * code must match (`calls /RE/`), or NULL */
	struct rule_template *label;  /* NULL for phase, skip, merge, transparent; hot: may be NULL */
	struct rule_template *else_label; /* branch: the label of the chain's `else` arm, or NULL */
	char *phase;                  /* phase: the phase name */
	char *index;                  /* expression passed as the record index, or NULL */
	char *extra;                  /* expression passed as the extra id, or NULL */
	bool sync;                    /* points record with MoeTracing<true> (a pipe barrier first) */
	bool whole;                   /* loop, branch: the point goes around the whole statement (all
				       * its iterations; the if chain with every arm), not each body */
	bool opaque;                  /* function: the point goes around each call statement of it,
				       * and nothing inside it is planned (an embedded operator) */
	struct rule_template *steps;  /* function: `steps "LABEL"`, the label of each step of its
				       * own body (a call of the sources' code that does work and
				       * has no point of its own), or NULL */
	const struct rule_in *in;     /* the innermost `in` block it was written in, or NULL */
	struct src_loc loc;           /* the statement */
};

/* A root: where level 1 of the trace is, and its label. */
struct rule_root {
	char *label;
	struct rule_regex *at;        /* `at function /RE/`; NULL: the kernel entry (`__global__`) */
	struct src_loc loc;
};

struct rule_core {
	char *type;                   /* "aic" or "aiv" */
	unsigned count;
};


/* The slot layouts collect reads (collect/dump_layout.h has their table,
 * which tests/unit/check_dump.c holds to this list): what `layout` accepts. */
#define RULE_LAYOUT_NAMES "moe-v1", "moe-v2"

struct rule_policy {
	int version;
	struct src_file **sources;    /* every rules file read, in reading order;
	                                 owned, since the locations point into them */
	size_t nsources;

	/* operator */
	struct rule_str name;         /* `name "NAME";`: the operator of a directory that holds
	                                 several (an OpDef class or its snake_case); NULL: none */
	struct rule_str project;      /* the project root, relative to the operator directory;
	                                 NULL value: found from the operator directory upwards */
	struct rule_str kernel;       /* `kernel "DIR"`: always set (default op_kernel) */
	struct rule_strlist base, host, infer, graph, aclnn, pybind, samples, build, include_dirs;
	struct rule_define *defines;
	size_t ndefines;
	/* the defines the operator's own build passes to its sources (its
	   CMakeLists.txt: cmake_defines.h), read when the rules are loaded for an
	   operator directory; applied before the rules' own, which win */
	struct cmake_defines build_defines;
	struct rule_str profiling;
	enum rule_mode mode;
	/* `without binding, samples;`: layers that live outside this project (the
	   torch binding of an operator library consumed elsewhere): wire leaves
	   them, G2/G4/G5 say they were left out, never that they passed */
	bool without_binding, without_samples;

	/* trace */
	struct rule_root *roots;       /* the root statements of the last file that has some */
	size_t nroots;
	const struct src_file *roots_file;
	struct rule_in **ins;          /* every `in` block read, owned */
	size_t nins;
	int depth;
	int density_min, density_max;
	struct rule_trace_rule *rules; /* in reading order; later rules take precedence */
	size_t nrules, cap_rules;

	/* gate */
	struct rule_regex *hook_after, *hook_before;
	struct rule_str hook_tree;    /* `hook tree "WORD"`: the tree the G1 hook preprocesses, as the
	                                 build script writes it; NULL value: found from the script */
	struct rule_str gate_build;

	/* collect */
	const char *layout;           /* `layout NAME`: one of RULE_LAYOUT_NAMES; NULL: auto */
	uint64_t clock_hz;
	struct rule_core *cores;
	size_t ncores;
	unsigned slot_words;
};

/* A policy holding the documented defaults (see autotrace-rules(5)). */
struct rule_policy *rule_policy_new(void);
void rule_policy_free(struct rule_policy *p);

void rule_str_set(struct rule_str *s, const char *value, struct src_loc loc);
void rule_strlist_clear(struct rule_strlist *l);
void rule_strlist_add(struct rule_strlist *l, const char *value);
void rule_trace_rule_clear(struct rule_trace_rule *r);
void rule_policy_clear_roots(struct rule_policy *p);

const char *rule_kind_name(enum rule_kind k);
const char *rule_target_name(enum rule_target t);

/* The value of `name` after the define/undef statements: 1 defined, 0
 * undefined by the rules, -1 not mentioned. */
int rule_policy_defined(const struct rule_policy *p, const char *name);

#endif
