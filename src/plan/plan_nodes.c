/* The nodes of the plan's tree that the walk makes: points (their label,
 * folding, the existing pair that makes them present, labels told apart),
 * spans and notes. See plan_walk.h. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_nav.h"
#include "plan_walk.h"
#include "xalloc.h"

const char *plan_keep_string(struct plan_walker *w, char *s)
{
	XGROW(w->kept, w->cap_kept, w->nkept + 1);
	w->kept[w->nkept++] = s;
	return s;
}

static int new_node(struct plan_walker *w, enum plan_kind kind, enum plan_fate fate, struct plan_fref f, int stmt, const struct plan_ctx *ctx)
{
	struct plan *pl = w->pl;
	struct plan_node *n;
	int idx;

	XGROW(pl->nodes, pl->cap_nodes, pl->nnodes + 1);
	if (w->cap_links < pl->cap_nodes) {
		w->last_child = xrealloc(w->last_child, pl->cap_nodes * sizeof(int));
		w->prev_sibling = xrealloc(w->prev_sibling, pl->cap_nodes * sizeof(int));
		w->cap_links = pl->cap_nodes;
	}
	idx = (int)pl->nnodes++;
	n = &pl->nodes[idx];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->fate = fate;
	n->unit = f.unit;
	n->func = f.func;
	n->stmt = stmt;
	n->stmt_last = stmt;
	n->call = -1;
	n->span_first = n->span_last = -1;
	n->parent = ctx->parent;
	n->depth = ctx->depth + 1;
	w->last_child[idx] = -1;
	w->prev_sibling[idx] = -1;
	if (ctx->parent >= 0) {
		w->prev_sibling[idx] = w->last_child[ctx->parent];
		w->last_child[ctx->parent] = idx;
	}
	return idx;
}

/* The existing point that is statement s, with event `ev`: its index, or -1. */
static int point_stmt(struct plan_walker *w, struct plan_fref f, int s, const char *ev)
{
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = plan_body_of(w, f);
	int k;

	if (s < 0 || (size_t)s >= b->nstmts)
		return -1;
	k = fi->point_at[s];
	if (k < 0 || !b->points[k].event || strcmp(b->points[k].event, ev) != 0)
		return -1;
	return k;
}

static bool same_label(const struct cxx_point *a, const struct cxx_point *b)
{
	return a->label && b->label && strcmp(a->label, b->label) == 0;
}

/* An existing pair opens and closes a scope: B(label) is statement `first`,
 * not yet claimed, and E(label) is statement `close`, or (for a body whose
 * `close` is its last statement) one of the points just before a final jump;
 * for statements, B is one of the points in a row ending at `first` and E
 * one of those in a row from `close` (points of one statement nest there). */
static int existing_pair(struct plan_walker *w, struct plan_fref f, int first, int close, bool body)
{
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = plan_body_of(w, f);
	int k = point_stmt(w, f, first, "B");

	if (k < 0 || close < 0 || (body && fi->claimed[k]))
		return -1;
	if (body && cxx_stmt_is_jump(&b->stmts[close]) && b->stmts[close].kind != CXX_STMT_GOTO) {
		const struct cxx_stmt *ls = &b->stmts[close];
		for (int j = close - 1; j > first; j--) {
			int e;
			if (b->stmts[j].parent != ls->parent)
				continue;
			e = point_stmt(w, f, j, "E");
			if (e < 0)
				break;
			if (same_label(&b->points[k], &b->points[e]))
				return k;
		}
		return -1;
	}
	if (body) {
		int e = point_stmt(w, f, close, "E");
		return e >= 0 && same_label(&b->points[k], &b->points[e]) ? k : -1;
	}
	/* statements: points that open (close) at the same statement stand in a
	 * row, the outer one first (last): the pair of one label among them */
	for (int bs = first; bs >= 0 && (k = point_stmt(w, f, bs, "B")) >= 0; bs = cxx_prev_sibling(b, bs)) {
		if (fi->claimed[k])
			continue;
		for (int es = close; es >= 0; es = cxx_next_sibling(b, es)) {
			int e = point_stmt(w, f, es, "E");
			if (e < 0)
				break;
			if (same_label(&b->points[k], &b->points[e]))
				return k;
		}
	}
	return -1;
}

struct plan_ctx plan_child_ctx(struct plan_walker *w, int node, const struct plan_ctx *up)
{
	struct plan_ctx c = *up;

	c.parent = node;
	c.depth = w->pl->nodes[node].depth;
	c.hot_ok = true;
	c.absorb = -1;
	c.setup = false;
	return c;
}

/* The first argument of call c in kebab case when it is a name (`MM1`,
 * `FLAG_DISPATCH_DONE`, `AscendC::X`: its last component) or a number,
 * else NULL. */
static char *arg_name(const struct cxx_call *c)
{
	const char *a, *last;

	if (c->nargs == 0 || !c->args[0] || !c->args[0][0])
		return NULL;
	a = last = c->args[0];
	for (const char *p = a; *p; p++) {
		if (p[0] == ':' && p[1] == ':') {
			last = p + 2;
			p++;
		} else if (!(isalnum((unsigned char)*p) || *p == '_')) {
			return NULL;
		}
	}
	return *last ? rule_kebab_case(last) : NULL;
}

/* `label` with `how` and `what` after it ("... wait-flag-dev mm1", "...-2"),
 * shortened to PLAN_LABEL_MAX (a trailing number kept). */
static char *told_apart(const char *label, const char *how, const char *what)
{
	char *s = xasprintf("%s%s%s", label, how, what), *fit = plan_label_fit(s, PLAN_LABEL_MAX);

	free(s);
	return fit;
}

/* Do the points n and s lie in two arms of one #if group whose every arm
 * the scan took (cxx_pp.h)? One configuration of the build runs each. */
static bool in_other_arms(const struct plan *pl, const struct plan_node *n, const struct plan_node *s)
{
	const struct cxx_outline *ol = pl->units[n->unit].outline;

	if (s->unit != n->unit)
		return false;
	for (size_t c = 0; c < ol->nconds; c++) {
		const struct cxx_cond *cd = &ol->conds[c];
		int an = -1, as = -1;
		for (size_t k = 0; k < cd->nbranches; k++) {
			struct cxx_range code = cxx_cond_branch_code(cd, k);
			if (!cd->branches[k].taken)
				continue;
			if (code.start <= n->scope.start && n->scope.start < code.end)
				an = (int)k;
			if (code.start <= s->scope.start && s->scope.start < code.end)
				as = (int)k;
		}
		if (an >= 0 && as >= 0 && an != as)
			return true;
	}
	return false;
}

/* May the points self and k (siblings) run together? Not when they lie in
 * different cases of one switch (the configurations of a tiling key: one of
 * them runs) or in two arms of an #if group the scan took whole. (The arms
 * of an if chain may be core roles that run at once: they do.) */
static bool run_together(struct plan_walker *w, int self, int k)
{
	const struct plan_node *n = &w->pl->nodes[self], *s = &w->pl->nodes[k];

	if (s->unit == n->unit && s->func == n->func && s->stmt >= 0 && n->stmt >= 0 &&
	    cxx_stmts_in_other_cases(&w->pl->units[n->unit].outline->funcs[n->func].body, s->stmt, n->stmt))
		return false;
	return !in_other_arms(w->pl, n, s);
}

static bool counts(const struct plan_node *s)
{
	return s->label && (s->fate == PLAN_FATE_INSERT || s->fate == PLAN_FATE_PRESENT || s->fate == PLAN_FATE_FOLDED);
}

static const char *base_of(const struct plan_node *s)
{
	return s->base ? s->base : s->label;
}

/* Does a sibling of node `self` under `parent` that can run with it have
 * `label` (the label now, or with `by_base`, the label its rule made)? */
static bool label_clash(struct plan_walker *w, int parent, int self, const char *label, bool by_base)
{
	if (parent < 0)
		return false;
	for (int k = w->last_child[parent]; k >= 0; k = w->prev_sibling[k]) {
		const struct plan_node *s = &w->pl->nodes[k];
		if (k != self && counts(s) && strcmp(by_base ? base_of(s) : s->label, label) == 0 && run_together(w, self, k))
			return true;
	}
	return false;
}

/* Was a sibling of `self` made with the label `base` told apart by its
 * call's argument? Then so is self, whatever it runs with: one way of
 * telling the calls of one function apart in a scope. */
static bool sibling_told_by_arg(struct plan_walker *w, int parent, int self, const char *base)
{
	if (parent < 0)
		return false;
	for (int k = w->last_child[parent]; k >= 0; k = w->prev_sibling[k]) {
		const struct plan_node *s = &w->pl->nodes[k];
		if (k != self && counts(s) && s->base && s->call >= 0 && strcmp(s->base, base) == 0)
			return true;
	}
	return false;
}

/* The siblings of node `self` under `parent` made with the label `base` and
 * not told apart yet, when they are calls' points with no points inside:
 * relabelled by their call's first argument (see arg_name). */
static void name_earlier_by_arg(struct plan_walker *w, int parent, int self, const char *base)
{
	struct plan *pl = w->pl;

	for (int k = w->last_child[parent]; k >= 0; k = w->prev_sibling[k]) {
		struct plan_node *e = &pl->nodes[k];
		char *arg;
		if (k == self || !e->label || e->base || strcmp(e->label, base) != 0 || e->call < 0 ||
		    w->last_child[k] >= 0 || !(e->fate == PLAN_FATE_INSERT || e->fate == PLAN_FATE_FOLDED))
			continue;
		arg = arg_name(&pl->units[e->unit].outline->funcs[e->func].body.calls[e->call]);
		if (!arg)
			continue;
		e->base = e->label;
		e->label = told_apart(e->base, " ", arg);
		free(arg);
	}
}

/* A name of a function that says what it does: not Process, Run,
 * operator() and their like, which every stage class has. */
static char *telling_func_name(struct plan *pl, const struct plan_node *n)
{
	const struct cxx_func *fn;

	if (n->func < 0)
		return NULL;
	fn = &pl->units[n->unit].outline->funcs[n->func];
	return plan_generic_method(fn->name) ? NULL : plan_kebab_var(plan_func_name_var(fn));
}

/* Points of one label under one parent that lie in functions other than the
 * parent's (code of helpers planned where they are called: `if ASCEND_IS_AIV`
 * in HcclAlltoAllvPrepare and in HcclFinalize): told apart by the name of
 * their function ("... aiv hccl-finalize"), the earlier ones too when
 * nothing is labelled inside them yet (their points' labels are made of
 * theirs). A point in the parent's own function, or in a function with a
 * generic name, keeps its label. */
static void name_by_function(struct plan_walker *w, int parent, int self)
{
	struct plan *pl = w->pl;
	const struct plan_node *p = &pl->nodes[parent];
	char *label = xstrdup(pl->nodes[self].label), *first = NULL;
	bool differ = false;

	/* only when the names tell them apart: not two variants of one function
	 * (MLAPO_BF16::...::ProcessVector, MLAPO_FP16::...::ProcessVector) */
	for (int k = w->last_child[parent]; k >= 0 && !differ; k = w->prev_sibling[k]) {
		struct plan_node *e = &pl->nodes[k];
		char *fn;
		if (k != self && (!counts(e) || strcmp(e->label, label) != 0 || !run_together(w, self, k)))
			continue;
		fn = e->unit == p->unit && e->func == p->func ? NULL : telling_func_name(pl, e);
		if (!fn)
			fn = xstrdup("");
		if (!first)
			first = fn;
		else {
			differ = strcmp(first, fn) != 0;
			free(fn);
		}
	}
	free(first);
	for (int k = w->last_child[parent]; differ && k >= 0; k = w->prev_sibling[k]) {
		struct plan_node *e = &pl->nodes[k];
		char *fn, *told;
		if (k != self && (!counts(e) || strcmp(e->label, label) != 0 || !run_together(w, self, k) ||
				  w->last_child[k] >= 0))
			continue;
		if ((e->unit == p->unit && e->func == p->func) || !(fn = telling_func_name(pl, e)))
			continue;
		told = told_apart(e->label, " ", fn);
		free(fn);
		if (!e->base)
			e->base = e->label;
		else
			free(e->label);
		e->label = told;
	}
	free(label);
}

/* Is point p the call of function f timed at its call (a step, a stage
 * timed where it is called), which names f already? */
static bool timed_call_of(struct plan_walker *w, const struct plan_node *p, struct plan_fref f)
{
	struct plan_fref t[PLAN_MAX_TARGETS];
	bool lam;
	size_t nt;

	if (p->call < 0 || p->func < 0)
		return false;
	nt = plan_resolve_call(w->pl, (struct plan_fref){ p->unit, p->func },
			       &w->pl->units[p->unit].outline->funcs[p->func].body.calls[p->call], t, PLAN_MAX_TARGETS, &lam);
	for (size_t k = 0; k < nt; k++)
		if (t[k].unit == f.unit && t[k].func == f.func)
			return true;
	return false;
}

/* A point: label from the template, folded when too deep, present when an
 * existing B opens its scope (at `b_stmt`, closed at `e_stmt`), else
 * inserted. `t` is the label template (the rule's, or its else label). */
int plan_add_point(struct plan_walker *w, enum plan_kind kind, struct plan_fref f, int stmt, struct cxx_range scope,
		     const struct rule_trace_rule *r, const struct rule_template *t, const struct plan_ctx *ctx, const char *name,
		     int b_stmt, int e_stmt, int call)
{
	struct plan *pl = w->pl;
	struct plan_finfo *fi = plan_finfo(pl, f);
	const struct cxx_body *b = plan_body_of(w, f);
	unsigned core = fi->mask & (stmt >= 0 ? fi->restr[stmt] : fi->own);
	int idx = new_node(w, kind, PLAN_FATE_INSERT, f, stmt, ctx);
	struct plan_node *n = &pl->nodes[idx];
	int k;

	n->scope = scope;
	n->core = core;
	n->rule = r;
	n->call = call;
	if (r) {
		n->label = plan_make_label(w, r, t, ctx, name, core, plan_func(pl, f));
		n->index = r->index;
		n->extra = r->extra;
		n->sync = r->sync;
	} else {
		n->label = xstrdup(w->p->roots[fi->root_rule].label);
	}
	if (n->depth > w->p->depth) {
		int a = ctx->parent;
		while (a >= 0 && pl->nodes[a].depth > w->p->depth)
			a = pl->nodes[a].parent;
		n->fate = PLAN_FATE_FOLDED;
		n->why = xasprintf("deeper than depth %d: folded into '%s'", w->p->depth, a >= 0 ? pl->nodes[a].label : "");
		return idx;
	}
	k = existing_pair(w, f, b_stmt, e_stmt, kind != PLAN_wrap && kind != PLAN_hot && kind != PLAN_region);
	if (k >= 0) {
		fi->claimed[k] = idx + 1;
		n->fate = PLAN_FATE_PRESENT;
		if (b->points[k].label) {
			n->rule_label = n->label;
			n->label = xstrdup(b->points[k].label);
		}
		return idx;
	}
	if (strstr(n->label, "*/") || strchr(n->label, '\n') || n->label[0] == '\0') {
		n->fate = PLAN_FATE_REFUSED;
		n->why = xasprintf("the label '%s' cannot be written in a trace point", n->label);
		pl->errors++;
		return idx;
	}
	if (kind == PLAN_branch && t && !rule_template_uses(t, RULE_TVAR_name) && !rule_template_uses(t, RULE_TVAR_Name) &&
	    ctx->parent >= 0 && (pl->nodes[ctx->parent].unit != f.unit || pl->nodes[ctx->parent].func != f.func) &&
	    !timed_call_of(w, &pl->nodes[ctx->parent], f)) {
		/* a core-type or role branch of a helper planned where it is called
		 * (HcclPrepare: `if ASCEND_IS_AIV { ... }`): its label says the helper */
		char *fn = telling_func_name(pl, n);
		if (fn) {
			char *told = told_apart(n->label, " ", fn);
			free(n->label);
			n->label = told;
			free(fn);
		}
	}
	if (ctx->parent >= 0 && strcmp(n->label, pl->nodes[ctx->parent].label) == 0) {
		/* never the label of the point it is in: the trace could not tell them apart */
		char *s = xasprintf("%s %s", n->label, plan_kind_name(kind));
		free(n->label);
		n->label = s;
	}
	if (call >= 0) {
		/* the same call among the siblings: told apart by its first argument
		 * when that is a name (`WaitFlagDev(MM1)`: "... wait-flag-dev mm1"),
		 * the earlier ones too when nothing is labelled inside them yet; a
		 * later call of that function is named by its argument as well */
		bool clash = label_clash(w, ctx->parent, idx, n->label, true);
		char *arg = clash || sibling_told_by_arg(w, ctx->parent, idx, n->label) ? arg_name(&b->calls[call]) : NULL;
		if (arg) {
			if (clash)
				name_earlier_by_arg(w, ctx->parent, idx, n->label);
			n->base = n->label;
			n->label = told_apart(n->base, " ", arg);
			free(arg);
		}
	}
	if (label_clash(w, ctx->parent, idx, n->label, false))
		name_by_function(w, ctx->parent, idx);
	if (label_clash(w, ctx->parent, idx, n->label, false)) {
		for (int i = 2;; i++) {
			char *num = xasprintf("%d", i);
			char *s = told_apart(n->label, "-", num);
			free(num);
			if (!label_clash(w, ctx->parent, idx, s, false)) {
				if (!n->base)
					n->base = n->label;
				else
					free(n->label);
				n->label = s;
				break;
			}
			free(s);
		}
	}
	return idx;
}

/* A point whose B/E go before statement `first` and after `last`. */
void plan_make_span(struct plan_walker *w, int node, struct plan_fref f, int first, int last)
{
	struct plan_node *n = &w->pl->nodes[node];
	const struct cxx_body *b = plan_body_of(w, f);

	n->span = true;
	n->span_first = first;
	n->span_last = last;
	n->scope.start = b->stmts[first].range.start;
	n->scope.end = b->stmts[last].range.end;
}

int plan_add_note(struct plan_walker *w, enum plan_kind kind, enum plan_fate fate, struct plan_fref f, int stmt,
		    struct cxx_range scope, const struct plan_ctx *ctx, char *label, char *why)
{
	int idx = new_node(w, kind, fate, f, stmt, ctx);
	struct plan_node *n = &w->pl->nodes[idx];
	struct plan_finfo *fi = plan_finfo(w->pl, f);

	n->scope = scope;
	n->label = label;
	n->why = why;
	n->core = fi->mask & (stmt >= 0 && stmt < (int)plan_body_of(w, f)->nstmts ? fi->restr[stmt] : fi->own);
	n->depth = ctx->depth; /* not a level of its own */
	return idx;
}

/* "the tile-level loop at file:line" for notes */
char *plan_tile_where(struct plan_walker *w, const struct plan_ctx *ctx)
{
	const struct plan_unit *u = &w->pl->units[ctx->tile_fn.unit];
	const struct cxx_stmt *st = &plan_body_of(w, ctx->tile_fn)->stmts[ctx->tile];

	return xasprintf("%s:%zu", u->path, src_file_line(u->file, st->range.start));
}
