/* The state of the planner's walk (pass 2), shared by its files:
 * plan_walk.c (the walk), plan_nodes.c (the nodes it makes), plan_spans.c
 * (what a scope's points enclose), plan_rules.c (which rule decides a
 * construct), plan_label.c (labels) and plan_core.c (roots and core types).
 * Other modules use plan.h. */
#ifndef AUTOTRACE_PLAN_WALK_H
#define AUTOTRACE_PLAN_WALK_H

#include <stdbool.h>

#include "plan_int.h"

#define PLAN_MAX_TARGETS 16

/* Where the walk is: what a construct found here would nest in. */
struct plan_ctx {
	int parent;        /* enclosing point node, -1 */
	int depth;         /* its depth, 0 outside the root */
	const char *phase; /* current {phase}, or NULL */
	bool phase_weak;   /* phase is only the name of the first function with a telling name on
			      the path (no rule named one): a rule's phase replaces it */
	bool hot_ok;       /* hot calls get points here */
	int tile;          /* inside a loop that is tile level: that loop's statement, else -1 */
	struct plan_fref tile_fn; /* the function holding that loop */
	int absorb;        /* a function point whose body is one call: the callee's point is
			      the same interval and merges into it (the node), else -1 */
	const struct rule_trace_rule *steps; /* in the own body of a function whose rule has
						`steps "LABEL"` (not in its loops, not in what it
						calls): that rule, else NULL */
	bool setup;        /* the call of a stage timed where it is called (a stage
			      sequence): the stage's set-up is a point of its own */
};

/* A function first reached from tile-level code, and the context of that
 * call: walked at the end, if nothing reached it outside, for the wrap and
 * region rules, the only ones that apply there. */
struct plan_tile_reach {
	struct plan_fref f;
	struct plan_ctx ctx;
};

struct plan_walker {
	struct plan *pl;
	struct diag *diag;
	const struct rule_policy *p;
	const struct rule_policy *fb; /* the fallback rules of a thin plan's second walk, or NULL */
	int fb_depth;                /* their function points go no deeper than this */
	unsigned in_merge;           /* walking the body of a merged function (book-keeping) */
	struct plan_map *unres;      /* callee -> index in pl->unresolved */
	struct plan_map *unfollowed; /* name -> (unit, index) of functions the scanner left out */
	int *last_child;             /* per node */
	int *prev_sibling;           /* per node */
	size_t cap_links;
	char *text;                  /* statement text buffer (plan_stmt_text) */
	size_t text_cap;
	char *subj;                  /* regex subject copy, see plan_re_match */
	size_t subj_cap;
	bool have_region;
	bool have_phase_region;      /* a `phase "NAME" region` rule */
	bool have_wrap_region;       /* a wrap or region rule: tile-level code is walked for them */
	struct plan_tile_reach *tile_reached; /* functions first reached from tile-level code */
	size_t ntile_reached, cap_tile_reached;
	const struct rule_trace_rule **helper; /* per function id, see plan_tile_helper */
	bool *rule_hit;              /* per trace rule: one of its regular expressions matched */
	bool *rule_own;              /* per trace rule: of the operator's own files, not the shipped ones */
	const char *root_name;       /* the function of the root being walked (the kernel entry: the
					operator's name), for the phase no rule names */
	const char *root_label;      /* its label ("processing"): {phase} where nothing names one */
	bool *rule_won;              /* per trace rule: it decided a construct (plan_rules.c, decide) */
	int *rule_taken_by;          /* per own rule: the rule that decided the first construct it
					would have decided, or -1 */
	char **kept;                 /* strings that live as long as the walk (expanded phases) */
	size_t nkept, cap_kept;
};

static inline const char *plan_unit_path(const struct plan *pl, size_t u)
{
	return pl->units[u].path;
}

static inline const struct cxx_body *plan_body_of(struct plan_walker *w, struct plan_fref f)
{
	return &plan_func(w->pl, f)->body;
}

/* plan_adopt.c */
/* After the walk: planned points that time what an existing pair times
 * become that pair (present); the others nest with the existing pairs or are
 * skipped; pl->hand lists the pairs kept as they are. */
void plan_adopt(struct plan_walker *w);
/* The one statement (*stmt of *g) that calls t, in the functions on paths
 * from a root that call it; false when there is none or more than one. */
bool plan_only_call_site(struct plan_walker *w, struct plan_fref t, struct plan_fref *g, int *stmt);

/* plan_learn.c */
/* s[0..n) with the regex metacharacters (and '/') escaped, between `pre`
 * and `post` (newly allocated): a rules regex matching it literally. */
char *plan_re_quote(const char *pre, const char *s, size_t n, const char *post);

/* plan_nodes.c */
/* Keeps `s` (newly allocated) until the walk ends; returns it. */
const char *plan_keep_string(struct plan_walker *w, char *s);
/* The context of what nests in point `node`, from the context `up` it is in. */
struct plan_ctx plan_child_ctx(struct plan_walker *w, int node, const struct plan_ctx *up);
/* A point of rule r (NULL: the root) for statement `stmt` of f (-1: the
 * function) over `scope`: label from template t (the rule's, or its else
 * label) and `name`, folded when too deep, present when an existing B opens
 * its scope (at `b_stmt`, closed at `e_stmt`), else inserted; `call`: the
 * call it times, or -1. Returns the node. */
int plan_add_point(struct plan_walker *w, enum plan_kind kind, struct plan_fref f, int stmt, struct cxx_range scope,
		   const struct rule_trace_rule *r, const struct rule_template *t, const struct plan_ctx *ctx,
		   const char *name, int b_stmt, int e_stmt, int call);
/* Point `node`'s B/E go before statement `first` of f and after `last`. */
void plan_make_span(struct plan_walker *w, int node, struct plan_fref f, int first, int last);
/* A node without a point (merged, skipped, ...): `label` and `why` are taken. */
int plan_add_note(struct plan_walker *w, enum plan_kind kind, enum plan_fate fate, struct plan_fref f, int stmt,
		  struct cxx_range scope, const struct plan_ctx *ctx, char *label, char *why);
/* "file:line" of the tile-level loop ctx is in, newly allocated (for notes). */
char *plan_tile_where(struct plan_walker *w, const struct plan_ctx *ctx);

/* plan_spans.c */
/* The first and last statements a root's or function's points enclose:
 * *first < 0 when nothing is left. Returns true when that is not the whole
 * body (the point is a span). */
bool plan_body_span(struct plan_walker *w, struct plan_fref f, bool root, int *first, int *last);
/* Is statement s of f a declaration that calls nothing but constructors
 * (`GlobalTensor<int64_t> g;`, `uint32_t k = 2;`): no work of its own? */
bool plan_plain_decl(struct plan_walker *w, struct plan_fref f, int s);
/* The same over the statements of block `parent` of f. */
bool plan_block_span(struct plan_walker *w, struct plan_fref f, int parent, bool root, int *first, int *last);
/* The blocks of f in which the runtime is set up when its body itself does
 * not set it up (an arm of a tiling-key chain): up to max into out. */
size_t plan_setup_blocks(struct plan_walker *w, struct plan_fref f, int *out, size_t max);
/* A run of sibling statements first..last (-1: to the end of the block)
 * whose first statements declare a variable the index expression (`index`,
 * `extra`) names (`uint32_t tracingIdx = next++;`), as a loop's, a
 * branch's body or a region may: the statement after that declaration, where
 * B goes, or -1 (none, or nothing after it in the run). */
int plan_index_decl_end(struct plan_walker *w, struct plan_fref f, int first, int last, const char *index,
			const char *extra);
/* Point `node` over statements first..last of f (-1: to the end of the
 * block): when its index or extra names a variable that the last of its
 * leading declarations declares, nothing follows for B to go before, and B
 * would use the variable before it exists: the point is refused (an error
 * of the plan). True when it is. */
bool plan_refuse_index_decl(struct plan_walker *w, int node, struct plan_fref f, int first, int last);

/* plan_rules.c */
bool plan_re_match(struct plan_walker *w, const struct rule_regex *re, const char *s);
/* Rule r decided a construct (for a choice made outside plan_rules.c). */
void plan_rule_won(struct plan_walker *w, const struct rule_trace_rule *r);
/* Is r one of the fallback rules of a thin plan's second walk? */
bool plan_fallback_rule(const struct plan_walker *w, const struct rule_trace_rule *r);
/* "function /RE/ (moe.rules:12)": where a rule was written, newly allocated. */
char *plan_rule_where(const struct rule_trace_rule *r);
/* The normalised text of [r) in f: blanks collapsed (a buffer of the walker's). */
const char *plan_stmt_text(struct plan_walker *w, const struct src_file *f, struct cxx_range r);
/* What wrap and region rules match of statement s of f (a buffer of the
 * walker's): of a compound statement (if chain, loop, switch, block) its
 * head, up to its body (`for (uint32_t i = 0; i < n; ++i)`, `if constexpr
 * (X)`, "" for a block); of a simple statement its whole text, the bodies
 * of the lambdas in it cut to `{}`. Blanks collapsed. */
const char *plan_stmt_head(struct plan_walker *w, struct plan_fref f, int s);
/* Does rule r apply to code of function f (its `in` blocks)? */
bool plan_rule_in_scope(struct plan_walker *w, const struct rule_trace_rule *r, struct plan_fref f);
bool plan_is_skip_file(struct plan_walker *w, size_t unit);
/* The function, skip, merge or transparent rule for function t, called from `caller`
 * (its `in` blocks; NULL for a root). */
const struct rule_trace_rule *plan_decide_function(struct plan_walker *w, struct plan_fref t,
						   const struct plan_fref *caller);
/* The loop or branch rule for statement s of f (or the skip or transparent
 * rule that wins). */
const struct rule_trace_rule *plan_decide_construct(struct plan_walker *w, struct plan_fref f, int s,
						    enum rule_kind kind, enum rule_target target);
/* wrap, hot or skip call for an expression or return statement; *call: the call. */
const struct rule_trace_rule *plan_decide_stmt(struct plan_walker *w, struct plan_fref f, int s,
					       const struct plan_ctx *ctx, int *call);
/* `/RE/ #N`: is statement s of f the N-th statement of the body, in source
 * order, whose head (plan_stmt_head) re matches -- counting, with
 * `call_stmts`, only the statements a wrap rule takes (expressions and
 * returns that make a call), else every statement but an if chain's arms?
 * True for nth 0. */
bool plan_nth_stmt(struct plan_walker *w, struct plan_fref f, int s, const struct rule_regex *re, unsigned nth,
		   bool call_stmts);
/* The same for call c of f and a hot rule r: the N-th call of the body whose
 * name r matches. */
bool plan_nth_call(struct plan_walker *w, struct plan_fref f, const struct cxx_call *c,
		   const struct rule_trace_rule *r);
/* A `phase "NAME" region` rule that starts at statement s of f, not one of
 * `open` (those open at this level of the block): the last read that
 * matches, with *last its last statement (without `to`, the block's last)
 * and *phase its phase; NULL when none starts there. */
const struct rule_trace_rule *plan_phase_region(struct plan_walker *w, struct plan_fref f, int s,
						const struct rule_trace_rule *const *open, size_t nopen, int *last,
						const char **phase);
const char *plan_phase_of(struct plan_walker *w, struct plan_fref f, const struct plan_fref *caller);
const char *plan_phase_of_loop(struct plan_walker *w, struct plan_fref f, int s);
/* Would a function rule give a callee of `c` its own point? */
bool plan_callee_has_point(struct plan_walker *w, struct plan_fref f, const struct cxx_call *c);
/* A helper that is only what its calls are: no loops, every call skipped by
 * one and the same `skip call` rule (SyncFunc<HardEvent>() { SetFlag...;
 * WaitFlag...; }), or neither hot nor into the operator's own code. That
 * rule, which skips calls of the helper too; NULL for other functions. */
const struct rule_trace_rule *plan_tile_helper(struct plan_walker *w, struct plan_fref f);
/* plan_walker.helper values besides a rule */
extern const struct rule_trace_rule plan_helper_marks[2];
#define PLAN_HELPER_UNKNOWN (&plan_helper_marks[0])
#define PLAN_HELPER_NO (&plan_helper_marks[1])
/* The first skip-call rule that matches call c, or NULL. */
const struct rule_trace_rule *plan_skip_call_rule(struct plan_walker *w, const struct cxx_call *c);

/* plan_work.c */
/* Does statement s of f (s < 0: its whole body), with all it holds and the
 * code it calls, do a phase's work: a loop, a statement a rule times, a call
 * of a timed function, a library call no skip or merge rule calls thin? */
bool plan_does_work(struct plan_walker *w, struct plan_fref f, int s, const struct plan_ctx *ctx);

/* plan_label.c */
/* The names below are as the source writes them ({Name}, {Class}), newly
 * allocated; {name} and {class} are their kebab-case (plan_kebab_var). */
/* {Name} of a function: its name, or its class's for operator(). */
char *plan_func_name_var(const struct cxx_func *fn);
/* {Name} of a branch: the first name of the condition that says something:
 * not a qualifier (ns::), not a core-type word (ASCEND_IS_AIV, g_coreType,
 * AIC: {core} says it), the last member of a member chain
 * (tiling->info.isNeedMM: isNeedMM). */
char *plan_cond_name_var(const char *text);
/* {Name} of a loop whose variable is `var` and header `head`: the variable,
 * or, when it names nothing (a letter or two, idx, loop, ...), what the
 * bound it is compared with counts (i < expertNumInOneRank_: "expert";
 * kebab-case); "" for a loop without a variable. */
char *plan_loop_name_var(const char *var, const char *head);
/* {Class} of a function: the last name of its class ("" for a free function). */
char *plan_class_var(const struct cxx_func *fn);
/* {Name} of a call: the called name, or, for a method every stage class has
 * (Process, Launch, Run, Compute, ...), the object's name
 * (mm_w8a8_aic_1.Process() -> mm_w8a8_aic_1, this->quant_.Launch() -> quant). */
char *plan_call_name_var(const struct cxx_call *c);
/* Is `name` such a method name? */
bool plan_generic_method(const char *name);
/* The kebab-case of `written`, which is freed. */
char *plan_kebab_var(char *written);
/* The label of a point of rule r (NULL: the root) for the construct named
 * `name` (as written) under ctx. */
char *plan_make_label(struct plan_walker *w, const struct rule_trace_rule *r, const struct rule_template *t,
		      const struct plan_ctx *ctx, const char *name, unsigned core, const struct cxx_func *fn);
/* plan_label_fit.c */
/* The longest label the planner writes (the longest an expert wrote is 47). */
enum { PLAN_LABEL_MAX = 48 };
/* `label` with each segment once and shortened to `max` characters (see
 * plan_label_fit.c); newly allocated. */
char *plan_label_fit(const char *label, size_t max);
/* A phase made of a long name (a class's, AlltoAllvGmmCoarseGrained) is
 * cut to PLAN_PHASE_MAX characters the same way, word by word, before it
 * goes into any label, so that every label of the phase starts alike. */
enum { PLAN_PHASE_MAX = 24 };
char *plan_phase_fit(const char *phase);


/* plan_core.c */
/* The roots of the plan (their finfo marked), and the core types propagated
 * through the call graph to a fixpoint. Returns the number of roots; *roots
 * is newly allocated. */
size_t plan_find_roots(struct plan_walker *w, struct plan_fref **roots);
void plan_propagate_cores(struct plan *pl, const struct plan_fref *roots, size_t nroots);

#endif
