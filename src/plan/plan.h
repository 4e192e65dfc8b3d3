/* The plan: where trace points go in an operator, computed from the outline
 * of its kernel sources and the trace rules of its policy (autotrace-rules(5)).
 *
 * The planner walks the static call graph from the root functions (those
 * matching `root ... at function /RE/`), statement by statement, and makes
 * a tree of candidate points: functions, loop bodies, branch bodies, call
 * statements (wrap, hot) and runs of statements (region). Each candidate
 * has a fate: inserted, already present (a hand-written or earlier point
 * opens the scope), folded (deeper than `depth`), skipped, merged into its
 * caller, or left alone (code inside a macro). Depth counts nesting along
 * the call path; a function reached on several paths is planned once, at
 * its first visit in source order, and its core type is the union of every
 * path's (AIC-only and AIV-only paths come from operator()<AscendC::AIC>
 * specialisations, `if ASCEND_IS_AIC`, `g_coreType == AIV` branches...).
 *
 * Ownership: a struct plan owns its units (files, outlines), nodes and
 * strings; it borrows the policy, which must outlive it. */
#ifndef AUTOTRACE_PLAN_H
#define AUTOTRACE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cxx_outline.h"
#include "diag.h"
#include "rule_policy.h"

#define PLAN_KINDS(X) X(root) X(function) X(loop) X(branch) X(wrap) X(region) X(hot) X(macro)

enum plan_kind {
#define X(n) PLAN_##n,
	PLAN_KINDS(X)
#undef X
	PLAN_KIND_COUNT
};

/* X(enum-suffix, name) */
#define PLAN_FATES(X) \
	X(INSERT, "insert") X(PRESENT, "present") X(FOLDED, "folded") X(SKIPPED, "skipped") \
	X(MERGED, "merged") X(MACRO, "left-alone") X(REFUSED, "refused") X(SHARED, "shared")

enum plan_fate {
#define X(id, name) PLAN_FATE_##id,
	PLAN_FATES(X)
#undef X
	PLAN_FATE_COUNT
};

enum { PLAN_CORE_AIC = 1, PLAN_CORE_AIV = 2, PLAN_CORE_MIX = 3 };

/* A plan with fewer distinct labels than this over both core types is thin
 * (the root, and little or nothing below it): the planner walks it again
 * with the fallback rules (rules/fallback.rules), and a report says so. */
enum { PLAN_THIN_LABELS = 3 };

struct plan_node {
	enum plan_kind kind;
	enum plan_fate fate;
	char *label;                  /* the point's label (existing one when present) */
	char *base;                   /* the label as its rule made it, before it was told
	                                 apart from its siblings' (NULL: the same) */
	char *why;                    /* folded/skipped/merged/left alone/refused: the reason */
	char *rule_label;             /* present: the label the rules made, where the existing
	                                 pair's (`label`) took its place; else NULL */
	size_t unit;                  /* file */
	int func;                     /* function in the unit's outline; -1 for a macro */
	int stmt;                     /* loop, arm, first statement of a wrap/hot/region; -1: function */
	int stmt_last;                /* region: last statement; wrap/hot: = stmt */
	int call;                     /* wrap/hot: the call that decided it, or -1 */
	struct cxx_range scope;       /* what B/E enclose: a body (braces included) or statements */
	unsigned core;                /* PLAN_CORE_* bits; 0: on no core's path */
	int depth;                    /* 1 for the root */
	int parent;                   /* enclosing point node, or -1 */
	const struct rule_trace_rule *rule; /* NULL for the root */
	const char *index;            /* record index expression (borrowed from the rule), or NULL */
	const char *extra;            /* extra id expression, or NULL */
	bool hoist;                   /* wrap/hot on `return expr;`: the value is computed first */
	bool sync;                    /* MoeTracing<true>: a pipe barrier before each record */
	bool mark;                    /* hot `mark`: B and E together before the statement; scope is
	                                 zero-width there */
	/* root, function or loop whose points do not go at the braces: B before
	 * statement span_first, E after span_last (and before every exit between),
	 * so that runtime set-up, leading guards (`if (...) return;`) or the
	 * declaration of the index variable stay outside */
	bool span;
	int span_first, span_last;
};

struct plan_unit {
	char *path;                   /* relative to the operator directory */
	char *fs_path;                /* as opened: OPDIR/path */
	struct src_file *file;
	struct cxx_outline *outline;
	bool runtime;                 /* the base header or in its #include closure: never edited */
	bool reaches_base;            /* its #include closure holds a base header */
	size_t *incs;                 /* followed includes (unit indices) */
	size_t nincs;
};

/* An existing pair (B and E statements of one block with one label). */
struct plan_hand {
	size_t unit;
	int func;
	int b_stmt, e_stmt;           /* its B and E statements in the function's body */
	const char *label;            /* borrowed from the unit's outline */
	uint32_t b, e;                /* where its B and its E are */
	int node;                     /* the planned point that took it (present), or -1: kept as it is */
};

struct plan_unresolved {
	char *callee;                 /* as written, template arguments dropped */
	size_t unit;
	uint32_t off;                 /* first call site */
	unsigned count;
	char *why;                    /* a name the sources define: why the first call reaches
				       * none of its definitions; else NULL */
};

/* A rule that does nothing (struct plan): how the plan names it ("skip call
 * /^Foo$/ (x.rules:5)"), and for one always overridden, the rule that takes
 * its constructs (else NULL). */
struct plan_idle_rule {
	const struct rule_trace_rule *rule, *by;
	char *what, *by_what;
};

struct plan {
	const struct rule_policy *policy; /* borrowed */
	char *opdir;
	char *kernel_dir;             /* opdir/kernel */
	struct plan_unit *units;
	size_t nunits;
	size_t *bases;                /* units that match the rules' base patterns */
	size_t nbases;
	/* The base header of this operator: the one its kernel entry includes,
	 * else one named after the entry beside it (<entry>_base.h); SIZE_MAX
	 * when there is none and apply creates `base_new`. */
	size_t base;
	char *base_new;               /* path relative to opdir of the base to create, or NULL */
	bool base_has_runtime;        /* the base (or its includes) defines MoeTracing */
	struct plan_node *nodes;      /* tree in preorder: a parent precedes its children */
	size_t nnodes, cap_nodes;
	struct plan_unresolved *unresolved; /* sorted by callee */
	size_t nunresolved, cap_unresolved;
	unsigned density[2];          /* distinct labels on AIC paths, on AIV paths */
	/* The fallback rules file the walk added under the policy because the
	 * policy's own plan was thin (with its distinct labels then), or NULL */
	const char *fallback;
	unsigned thin_density[2];
	int fallback_depth;           /* the depth they timed to (theirs, or less where
	                                 that was denser than the policy's density) */
	unsigned nroots;
	unsigned errors;              /* refusals: apply must not write */
	/* trace rules of the operator's own files (not the shipped ones) that
	 * do nothing in the sources planned, in order: those whose regular
	 * expressions matched nothing, and those that match but lose every
	 * construct they match to a later rule */
	struct plan_idle_rule *unmatched;
	size_t nunmatched;
	struct plan_idle_rule *shadowed;
	size_t nshadowed;
	struct plan_hand *hand;       /* existing pairs, in unit order, and which planned point took each */
	size_t nhand;
	size_t *unit_first;           /* nodes of unit u: by_unit[unit_first[u] .. unit_first[u + 1]) */
	int *by_unit;                 /* node indices grouped by unit, in plan order */
	struct plan_index *index;     /* private */
};

/* Scans the kernel sources of `opdir` under the policy (kernel root,
 * include_dirs, define/undef), then plans. With `entry` (one operator of a
 * directory that holds several, project_ops.h) only the files defining the
 * __global__ kernel entry of that name (or the same name but for case and
 * underscores) and their #include closure are scanned, so another
 * operator's entry is neither planned nor edited; NULL: every source under
 * the kernel root. Warnings and errors go to `diag`. Returns NULL when the
 * sources cannot be read or no file defines `entry` (exit 2). */
struct plan *plan_build(const struct rule_policy *p, const char *opdir, const char *entry, struct diag *diag);

/* Plans over units that are already loaded (takes ownership of them). */
struct plan *plan_from_units(const struct rule_policy *p, const char *opdir, struct plan_unit *units,
			     size_t nunits, struct diag *diag);

void plan_free(struct plan *pl);

const char *plan_kind_name(enum plan_kind k);
const char *plan_fate_name(enum plan_fate f);
const char *plan_core_name(unsigned core); /* "aic", "aiv", "mix", "none" */

/* The nodes of unit u, in plan order; returns their number. */
size_t plan_unit_nodes(const struct plan *pl, size_t u, const int **nodes);

/* 1-based line of a node's construct. */
size_t plan_node_line(const struct plan *pl, const struct plan_node *n);

/* An #if branch of unit u that the scan did not take and the rules do not
 * decide, inside a scope that gets points: apply balances the points under
 * it too (edit_points.c). */
struct plan_branch {
	size_t cond;                  /* in the unit's outline conds */
	unsigned branch;
};
size_t plan_untaken_branches(const struct plan *pl, size_t u, struct plan_branch **out);

/* Facts of the scanned code that apply asks too: */
/* True for MoeTracing(...) and TRACE_POINT(...) calls. */
bool plan_is_trace_call(const struct cxx_call *c);
/* True when the function returns void (its prefix ends in `void`). */
bool plan_func_is_void(const struct cxx_func *f);

/* Output: the tree with fates and reasons, the density table and the
 * callees that could not be followed. */
/* learn (plan_learn.c): the rules statement, over names, kinds and
 * positions, that puts existing pair h back where it is under its label
 * (newly allocated); NULL with *why (newly allocated) when no rule form can. */
char *plan_learn_statement(struct plan *pl, const struct plan_hand *h, char **why, struct diag *diag);
/* plan --positions: the statements of every function named `func` (its
 * qualified name or last components) with the rule forms that take each by
 * position, #N counted as the planner counts. Returns how many functions. */
size_t plan_print_positions(FILE *out, struct plan *pl, const char *func, struct diag *diag);
void plan_print_tree(FILE *out, const struct plan *pl);
void plan_print_json(FILE *out, const struct plan *pl);
/* The JSON form as a new cJSON object (the caller deletes it): what
 * plan_print_json prints, for a report that holds the plan. */
struct cJSON *plan_json(const struct plan *pl);

/* Warnings for density outside [density_min, density_max] per core type. */
void plan_warn_density(const struct plan *pl, struct diag *diag);
/* A warning at each rule of pl->unmatched and pl->shadowed (with a note at
 * the rule that overrides it), for `rules check OPDIR`. */
void plan_warn_idle_rules(const struct plan *pl, const char *opdir, struct diag *diag);

#endif
