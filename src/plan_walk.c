/* The planner's walk: from each root function, statement by statement and
 * through the static call graph, deciding for every construct which trace
 * rule applies (the last matching rule of the file wins), and making the
 * tree of candidate points with their fates.
 *
 * Two passes. The first propagates core types through the call graph to a
 * fixpoint (a function reached from an AIC-only and an AIV-only path runs on
 * both); the second makes the tree, visiting each function once, at its
 * first call in source order. */
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"
#include "xalloc.h"

#define MAX_TARGETS 16

struct ctx {
	int parent;        /* enclosing point node, -1 */
	int depth;         /* its depth, 0 outside the root */
	const char *phase; /* current {phase}, or NULL */
	bool hot_ok;       /* hot calls get points here */
};

struct walker {
	struct plan *pl;
	struct diag *diag;
	const struct rule_policy *p;
	struct plan_map *unres;   /* callee -> index in pl->unresolved */
	struct plan_map *unfollowed; /* name -> (unit, index) of functions the scanner left out */
	int *last_child;          /* per node */
	int *prev_sibling;        /* per node */
	size_t cap_links;
	char *text;               /* statement text buffer */
	size_t text_cap;
	char *subj;               /* regex subject copy, see re_match */
	size_t subj_cap;
	bool have_region, have_wrap;
};

/* ------------------------------------------------------------ helpers */

/* PCRE2's JIT code may load a few bytes past the subject's end (harmless,
 * inside the allocation, but uninitialised for valgrind): subjects are
 * matched from a copy followed by zeroed padding. */
static bool re_match(struct walker *w, const struct rule_regex *re, const char *s)
{
	size_t n;

	if (!re || !s)
		return false;
	n = strlen(s);
	if (n + 64 > w->subj_cap) {
		free(w->subj);
		w->subj_cap = (n + 64) * 2;
		w->subj = xcalloc(w->subj_cap, 1);
	}
	memcpy(w->subj, s, n);
	memset(w->subj + n, 0, 64);
	return rule_regex_match(re, w->subj, n);
}


/* "moe.rules:12" for a rule */
static char *rule_where(const struct rule_trace_rule *r)
{
	char *re = rule_regex_text(r->match);
	char *s;
	const char *path = r->loc.file ? r->loc.file->path : "?";
	const char *base = strrchr(path, '/');

	s = xasprintf("%s %s%s%s (%s:%zu)", rule_kind_name(r->kind), r->kind == RULE_skip || r->kind == RULE_merge ||
			r->kind == RULE_phase ? rule_target_name(r->target) : "",
		r->kind == RULE_skip || r->kind == RULE_merge || r->kind == RULE_phase ? " " : "", re,
		base ? base + 1 : path, r->loc.file ? src_file_line(r->loc.file, r->loc.start) : (size_t)0);
	free(re);
	return s;
}

/* The normalised text of a statement: blanks collapsed to one space. */
static const char *stmt_text(struct walker *w, const struct src_file *f, struct cxx_range r)
{
	size_t n = 0;
	bool space = false;

	XGROW(w->text, w->text_cap, (size_t)(r.end - r.start) + 1);
	for (uint32_t i = r.start; i < r.end && i < f->len; i++) {
		char c = f->data[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = n > 0;
			continue;
		}
		if (space)
			w->text[n++] = ' ';
		space = false;
		w->text[n++] = c;
	}
	w->text[n] = '\0';
	return w->text;
}

static const char *unit_path(const struct plan *pl, size_t u)
{
	return pl->units[u].path;
}

static bool is_skip_file(struct walker *w, size_t unit)
{
	for (size_t i = w->p->nrules; i-- > 0;) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		if (r->kind == RULE_skip && r->target == RULE_TARGET_file && re_match(w, r->match, unit_path(w->pl, unit)))
			return true;
	}
	return false;
}

static const struct rule_trace_rule *decide_function(struct walker *w, struct plan_fref f)
{
	const struct cxx_func *fn = plan_func(w->pl, f);

	for (size_t i = w->p->nrules; i-- > 0;) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		bool applies = r->kind == RULE_function ||
			       ((r->kind == RULE_skip || r->kind == RULE_merge) && r->target == RULE_TARGET_function);
		if (applies && re_match(w, r->match, fn->qualified_name))
			return r;
		if (r->kind == RULE_skip && r->target == RULE_TARGET_file && re_match(w, r->match, unit_path(w->pl, f.unit)))
			return r;
	}
	return NULL;
}

static const struct rule_trace_rule *decide_construct(struct walker *w, enum rule_kind kind, enum rule_target target,
						      const char *text)
{
	for (size_t i = w->p->nrules; i-- > 0;) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		if ((r->kind == kind || (r->kind == RULE_skip && r->target == target)) && re_match(w, r->match, text))
			return r;
	}
	return NULL;
}

static const char *phase_of(struct walker *w, struct plan_fref f)
{
	const struct cxx_func *fn = plan_func(w->pl, f);

	for (size_t i = w->p->nrules; i-- > 0;) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		if (r->kind != RULE_phase)
			continue;
		if (r->target == RULE_TARGET_file && re_match(w, r->match, unit_path(w->pl, f.unit)))
			return r->phase;
		if (r->target == RULE_TARGET_function && re_match(w, r->match, fn->qualified_name))
			return r->phase;
	}
	return NULL;
}

static bool is_loop(const struct cxx_stmt *st)
{
	return st->kind == CXX_STMT_FOR || st->kind == CXX_STMT_WHILE || st->kind == CXX_STMT_DO;
}

/* The source text of loop statement s without the loops nested in it (each
 * cut down to one blank), newly allocated: a phase names the loop whose own
 * code matches, not every loop around it. */
static char *loop_own_text(struct walker *w, struct plan_fref f, int s)
{
	const struct cxx_body *b = &plan_func(w->pl, f)->body;
	const char *data = w->pl->units[f.unit].file->data;
	struct cxx_range r = b->stmts[s].range;
	char *text = xmalloc((size_t)(r.end - r.start) + b->nstmts + 1);
	size_t n = 0;
	uint32_t at = r.start;

	for (size_t j = 0; j < b->nstmts; j++) {
		const struct cxx_stmt *in = &b->stmts[j];
		/* statements come in source order: the first nested loop at or after `at` */
		if ((int)j == s || !is_loop(in) || in->range.start < at || in->range.end > r.end || in->range.start <= r.start)
			continue;
		memcpy(text + n, data + at, in->range.start - at);
		n += in->range.start - at;
		text[n++] = ' ';
		at = in->range.end;
	}
	memcpy(text + n, data + at, r.end - at);
	n += r.end - at;
	text[n] = '\0';
	return text;
}

/* The phase a `phase ... loop` rule gives loop statement s (matched against
 * the loop's own source text, header and body, nested loops left out), or
 * NULL. */
static const char *phase_of_loop(struct walker *w, struct plan_fref f, int s)
{
	const char *phase = NULL;
	char *text = NULL;

	for (size_t i = w->p->nrules; i-- > 0 && !phase;) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		if (r->kind != RULE_phase || r->target != RULE_TARGET_loop)
			continue;
		if (!text)
			text = loop_own_text(w, f, s);
		if (re_match(w, r->match, text))
			phase = r->phase;
	}
	free(text);
	return phase;
}

/* {name} of a function: its name, or its class's for operator(). */
static char *func_name_var(const struct cxx_func *fn)
{
	char scope[512];

	if (strcmp(fn->name, "operator()") == 0 && plan_func_scope(fn, scope, sizeof(scope))[0]) {
		const char *s = scope, *last = s;
		char *tmp, *out;
		for (; *s; s++)
			if (s[0] == ':' && s[1] == ':')
				last = s + 2;
		tmp = xstrndup(last, strcspn(last, "<"));
		out = rule_kebab_case(tmp);
		free(tmp);
		return out;
	}
	return rule_kebab_case(fn->name[0] == '~' ? fn->name + 1 : fn->name);
}

/* {name} of a branch: the first identifier of the condition that is not a
 * namespace qualifier. */
static char *cond_name_var(const char *text)
{
	const char *p = text ? text : "";

	while (*p) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_') {
			const char *s = p;
			char *id, *out;
			while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')
				p++;
			if (p[0] == ':' && p[1] == ':')
				continue;
			id = xstrndup(s, (size_t)(p - s));
			out = rule_kebab_case(id);
			free(id);
			return out;
		}
		p++;
	}
	return xstrdup("");
}

/* The root rule that makes fn a root (the first that matches), or -1. */
static int root_rule(struct walker *w, const struct cxx_func *fn)
{
	for (size_t r = 0; r < w->p->nroots; r++) {
		const struct rule_root *rr = &w->p->roots[r];
		if (rr->at ? re_match(w, rr->at, fn->qualified_name) : fn->kernel)
			return (int)r;
	}
	return -1;
}

static void warn_no_root(struct walker *w)
{
	char *list = xstrdup("");

	for (size_t r = 0; r < w->p->nroots; r++) {
		char *re = w->p->roots[r].at ? rule_regex_text(w->p->roots[r].at) : NULL;
		char *next = xasprintf("%s%s%s", list, r ? ", " : "", re ? re : "a __global__ kernel entry");
		free(re);
		free(list);
		list = next;
	}
	diag_plain(w->diag, DIAG_WARNING, "no function of %s is a root (%s): nothing is planned", w->pl->kernel_dir,
		   list);
	free(list);
}

/* ------------------------------------------------------------ nodes */

static int new_node(struct walker *w, enum plan_kind kind, enum plan_fate fate, struct plan_fref f, int stmt,
		    const struct ctx *ctx)
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

static bool sibling_has_label(struct walker *w, int parent, int self, const char *label)
{
	if (parent < 0)
		return false;
	for (int k = w->last_child[parent]; k >= 0; k = w->prev_sibling[k]) {
		const struct plan_node *s = &w->pl->nodes[k];
		if (k != self && s->label && (s->fate == PLAN_FATE_INSERT || s->fate == PLAN_FATE_PRESENT ||
					     s->fate == PLAN_FATE_FOLDED) && strcmp(s->label, label) == 0)
			return true;
	}
	return false;
}

/* The existing point that is statement s, with event `ev`: its index, or -1. */
static int point_stmt(struct walker *w, struct plan_fref f, int s, const char *ev)
{
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = &plan_func(w->pl, f)->body;
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

static int next_sibling_stmt(const struct cxx_body *b, int s)
{
	int parent = b->stmts[s].parent;
	uint32_t end = b->stmts[s].range.end;
	size_t j = (size_t)s + 1;

	while (j < b->nstmts && b->stmts[j].range.start < end)
		j++;
	return j < b->nstmts && b->stmts[j].parent == parent ? (int)j : -1;
}

static int last_child_stmt(const struct cxx_body *b, int parent)
{
	int last = -1;

	for (size_t s = parent < 0 ? 0 : (size_t)parent + 1; s < b->nstmts; s++) {
		if (parent >= 0 && b->stmts[s].range.start >= b->stmts[parent].range.end)
			break;
		if (b->stmts[s].parent == parent)
			last = (int)s;
	}
	return last;
}

/* An existing pair opens and closes a scope: B(label) is statement `first`,
 * not yet claimed, and E(label) is statement `close`, or (for a body whose
 * `close` is its last statement) one of the points just before a final jump. */
static int existing_pair(struct walker *w, struct plan_fref f, int first, int close, bool body)
{
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = &plan_func(w->pl, f)->body;
	int k = point_stmt(w, f, first, "B");

	if (k < 0 || fi->claimed[k] || close < 0)
		return -1;
	if (body) {
		const struct cxx_stmt *ls = &b->stmts[close];
		if (ls->kind == CXX_STMT_RETURN || ls->kind == CXX_STMT_BREAK || ls->kind == CXX_STMT_CONTINUE) {
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
	}
	{
		int e = point_stmt(w, f, close, "E");
		return e >= 0 && same_label(&b->points[k], &b->points[e]) ? k : -1;
	}
}

static int first_child_stmt(const struct cxx_body *b, int parent)
{
	size_t s = parent < 0 ? 0 : (size_t)parent + 1;

	if (s < b->nstmts && b->stmts[s].parent == parent)
		return (int)s;
	return -1;
}

static int prev_sibling_stmt(const struct cxx_body *b, int s)
{
	int parent = b->stmts[s].parent;

	for (int j = s - 1; j >= 0; j--) {
		if (j == parent)
			return -1;
		if (b->stmts[j].parent == parent)
			return j;
	}
	return -1;
}

/* A point: label from the template, folded when too deep, present when an
 * existing B opens its scope (at `b_stmt`), else inserted. */
static int add_point(struct walker *w, enum plan_kind kind, struct plan_fref f, int stmt, struct cxx_range scope,
		     const struct rule_trace_rule *r, const struct ctx *ctx, const char *name, int b_stmt, int e_stmt)
{
	struct plan *pl = w->pl;
	struct plan_finfo *fi = plan_finfo(pl, f);
	const struct cxx_body *b = &plan_func(pl, f)->body;
	unsigned core = fi->mask & (stmt >= 0 ? fi->restr[stmt] : fi->own);
	int idx = new_node(w, kind, PLAN_FATE_INSERT, f, stmt, ctx);
	struct plan_node *n = &pl->nodes[idx];
	int k;

	n->scope = scope;
	n->core = core;
	n->rule = r;
	if (r) {
		struct rule_tvalues v;
		const struct rule_template *t = r->label;
		memset(&v, 0, sizeof(v));
		v.v[RULE_TVAR_phase] = ctx->phase;
		v.v[RULE_TVAR_name] = name;
		v.v[RULE_TVAR_parent] = ctx->parent >= 0 ? pl->nodes[ctx->parent].label : "";
		v.v[RULE_TVAR_core] = core == PLAN_CORE_AIC ? "aic" : core == PLAN_CORE_AIV ? "aiv" : "mix";
		if (t) {
			n->label = rule_template_expand(t, &v);
		} else {
			char *s = xasprintf("%s%s%s", v.v[RULE_TVAR_parent], v.v[RULE_TVAR_parent][0] ? " " : "", name ? name : "");
			n->label = s;
		}
		n->index = r->index;
		n->extra = r->extra;
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
		fi->claimed[k] = true;
		n->fate = PLAN_FATE_PRESENT;
		if (b->points[k].label) {
			free(n->label);
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
	if (sibling_has_label(w, ctx->parent, idx, n->label)) {
		for (int i = 2;; i++) {
			char *s = xasprintf("%s-%d", n->label, i);
			if (!sibling_has_label(w, ctx->parent, idx, s)) {
				free(n->label);
				n->label = s;
				break;
			}
			free(s);
		}
	}
	return idx;
}

static int add_note(struct walker *w, enum plan_kind kind, enum plan_fate fate, struct plan_fref f, int stmt,
		    struct cxx_range scope, const struct ctx *ctx, char *label, char *why)
{
	int idx = new_node(w, kind, fate, f, stmt, ctx);
	struct plan_node *n = &w->pl->nodes[idx];
	struct plan_finfo *fi = plan_finfo(w->pl, f);

	n->scope = scope;
	n->label = label;
	n->why = why;
	n->core = fi->mask & (stmt >= 0 && stmt < (int)plan_func(w->pl, f)->body.nstmts ? fi->restr[stmt] : fi->own);
	n->depth = ctx->depth; /* not a level of its own */
	return idx;
}

static struct ctx child_ctx(struct walker *w, int node, const struct ctx *up)
{
	struct ctx c = *up;

	c.parent = node;
	c.depth = w->pl->nodes[node].depth;
	c.hot_ok = true;
	return c;
}

/* ------------------------------------------------------------ unresolved */

static void note_unresolved(struct walker *w, struct plan_fref f, const struct cxx_call *c)
{
	struct plan *pl = w->pl;
	const char *callee = c->callee ? c->callee : c->name;
	size_t n = strlen(callee);
	char *key;
	const size_t *a;
	const int *b;

	if (c->template_args && n > 0 && callee[n - 1] == '>') {
		const char *lt = strrchr(callee, '<');
		int depth = 0;
		for (size_t i = n; i-- > 0;) {
			if (callee[i] == '>')
				depth++;
			else if (callee[i] == '<' && --depth == 0) {
				lt = callee + i;
				break;
			}
		}
		if (lt)
			n = (size_t)(lt - callee);
	}
	key = xstrndup(callee, n);
	if (plan_map_get(w->unres, key, &a, &b) > 0) {
		pl->unresolved[a[0]].count++;
		free(key);
		return;
	}
	XGROW(pl->unresolved, pl->cap_unresolved, pl->nunresolved + 1);
	pl->unresolved[pl->nunresolved].callee = key;
	pl->unresolved[pl->nunresolved].unit = f.unit;
	pl->unresolved[pl->nunresolved].off = c->range.start;
	pl->unresolved[pl->nunresolved].count = 1;
	plan_map_add(w->unres, key, pl->nunresolved, 0);
	pl->nunresolved++;
}

/* A call that reaches a function the scanner could not follow. */
static bool check_unfollowed(struct walker *w, struct plan_fref f, const struct cxx_call *c, const struct ctx *ctx)
{
	const size_t *a;
	const int *b;
	const struct cxx_unfollowed *uf;

	if (!c->name || plan_map_get(w->unfollowed, c->name, &a, &b) == 0)
		return false;
	uf = &w->pl->units[a[0]].outline->unfollowed[b[0]];
	add_note(w, PLAN_function, PLAN_FATE_REFUSED, f, c->stmt, c->range, ctx, xstrdup(uf->qualified_name),
		 xasprintf("the scanner could not follow '%s' (%s:%zu), which this call may reach", uf->qualified_name,
		     unit_path(w->pl, a[0]), src_file_line(w->pl->units[a[0]].file, uf->name_range.start)));
	w->pl->errors++;
	return true;
}

/* ------------------------------------------------------------ pass 1: core types */

static void propagate(struct plan *pl, struct plan_fref *roots, size_t nroots)
{
	size_t cap = pl->index->nfuncs + 1, n = 0;
	struct plan_fref *work = xmalloc(cap * sizeof(*work));
	bool *queued = xcalloc(cap, sizeof(bool));
	struct plan_fref t[MAX_TARGETS];

	for (size_t i = 0; i < nroots; i++) {
		struct plan_finfo *fi = plan_finfo(pl, roots[i]);
		fi->mask = fi->own;
		fi->reached = true;
		work[n++] = roots[i];
		queued[plan_fid(pl, roots[i])] = true;
	}
	while (n > 0) {
		struct plan_fref f = work[--n];
		struct plan_finfo *fi = plan_finfo(pl, f);
		const struct cxx_body *b = &plan_func(pl, f)->body;
		queued[plan_fid(pl, f)] = false;
		if (pl->units[f.unit].runtime)
			continue;
		for (size_t ci = 0; ci < b->ncalls; ci++) {
			const struct cxx_call *c = &b->calls[ci];
			unsigned m = fi->mask & (c->stmt >= 0 ? fi->restr[c->stmt] : fi->own);
			bool lam;
			size_t nt = plan_resolve_call(pl, f, c, t, MAX_TARGETS, &lam);
			size_t mu;
			int mi;
			if (nt == 0 && c->name && !c->object && plan_find_macro(pl, c->name, &mu, &mi)) {
				/* the calls in a macro's body count as calls of the statement */
				const struct cxx_body *mb = &pl->units[mu].outline->macros[mi].body;
				for (size_t k = 0; k < mb->ncalls && nt < MAX_TARGETS; k++) {
					bool l2;
					nt += plan_resolve_call(pl, f, &mb->calls[k], t + nt, MAX_TARGETS - nt, &l2);
				}
			}
			for (size_t k = 0; k < nt; k++) {
				struct plan_finfo *ti = plan_finfo(pl, t[k]);
				unsigned nm = ti->mask | (m & ti->own);
				size_t id = plan_fid(pl, t[k]);
				if (nm != ti->mask || !ti->reached) {
					ti->mask = nm;
					ti->reached = true;
					if (!queued[id]) {
						if (n == cap) {
							cap *= 2;
							work = xrealloc(work, cap * sizeof(*work));
						}
						work[n++] = t[k];
						queued[id] = true;
					}
				}
				if (ti->is_root && !(t[k].unit == f.unit && t[k].func == f.func))
					ti->is_root = false; /* reached from another root: an ordinary function */
			}
		}
	}
	free(queued);
	free(work);
}

/* ------------------------------------------------------------ pass 2: the tree */

static void walk_block(struct walker *w, struct plan_fref f, int parent, const struct ctx *ctx);
static void walk_function(struct walker *w, struct plan_fref t, const struct ctx *ctx);

static void walk_call(struct walker *w, struct plan_fref f, const struct cxx_call *c, const struct ctx *ctx)
{
	struct plan_fref t[MAX_TARGETS];
	bool lam = false;
	size_t nt;
	size_t mu;
	int mi;

	if (plan_is_trace_call(c))
		return;
	nt = plan_resolve_call(w->pl, f, c, t, MAX_TARGETS, &lam);
	if (nt == 0 && c->name && !c->object && plan_find_macro(w->pl, c->name, &mu, &mi)) {
		const struct cxx_macro *m = &w->pl->units[mu].outline->macros[mi];
		add_note(w, PLAN_macro, PLAN_FATE_MACRO, f, c->stmt, c->range, ctx, xstrdup(m->name),
			 xasprintf("the code of macro %s (%s:%zu) is left alone", m->name, unit_path(w->pl, mu),
			     src_file_line(w->pl->units[mu].file, m->range.start)));
		for (size_t k = 0; k < m->body.ncalls; k++) {
			struct plan_fref t2[MAX_TARGETS];
			bool l2;
			size_t n2 = plan_resolve_call(w->pl, f, &m->body.calls[k], t2, MAX_TARGETS, &l2);
			for (size_t j = 0; j < n2; j++)
				walk_function(w, t2[j], ctx);
		}
		return;
	}
	if (nt == 0) {
		if (!lam && !check_unfollowed(w, f, c, ctx))
			note_unresolved(w, f, c);
		return;
	}
	for (size_t k = 0; k < nt; k++)
		walk_function(w, t[k], ctx);
}

static void walk_calls_of(struct walker *w, struct plan_fref f, int s, const struct ctx *ctx)
{
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = &plan_func(w->pl, f)->body;

	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++)
		walk_call(w, f, &b->calls[fi->call_order[k]], ctx);
}

/* Would a function rule give the callee of `c` its own point? */
static bool callee_has_point(struct walker *w, struct plan_fref f, const struct cxx_call *c)
{
	struct plan_fref t[MAX_TARGETS];
	bool lam;
	size_t nt = plan_resolve_call(w->pl, f, c, t, MAX_TARGETS, &lam);

	for (size_t k = 0; k < nt; k++) {
		const struct rule_trace_rule *r = decide_function(w, t[k]);
		if (r && r->kind == RULE_function)
			return true;
	}
	return false;
}

/* wrap, hot or skip call for an expression or return statement. */
static const struct rule_trace_rule *decide_stmt(struct walker *w, struct plan_fref f, int s, const struct ctx *ctx,
						 int *call)
{
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_func *fn = plan_func(w->pl, f);
	const struct cxx_body *b = &fn->body;
	const char *text = NULL;
	bool any_call = false;

	*call = -1;
	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++)
		if (!plan_is_trace_call(&b->calls[fi->call_order[k]]))
			any_call = true;
	if (!any_call)
		return NULL;
	for (size_t i = w->p->nrules; i-- > 0;) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		if (r->kind == RULE_wrap) {
			if (!text)
				text = stmt_text(w, w->pl->units[f.unit].file, b->stmts[s].range);
			if (re_match(w, r->match, text)) {
				for (int k = fi->call_first[s]; k < fi->call_first[s + 1] && *call < 0; k++)
					if (!plan_is_trace_call(&b->calls[fi->call_order[k]]))
						*call = fi->call_order[k];
				return r;
			}
		} else if ((r->kind == RULE_hot && ctx->hot_ok) ||
			   (r->kind == RULE_skip && r->target == RULE_TARGET_call)) {
			for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++) {
				const struct cxx_call *c = &b->calls[fi->call_order[k]];
				if (plan_is_trace_call(c))
					continue;
				/* calls inside a lambda of the statement are not the statement's */
				if (!(re_match(w, r->match, c->name) || (r->kind == RULE_skip && re_match(w, r->match, c->callee))))
					continue;
				if (r->kind == RULE_hot && callee_has_point(w, f, c))
					continue;
				*call = fi->call_order[k];
				return r;
			}
		}
	}
	return NULL;
}

static void walk_simple(struct walker *w, struct plan_fref f, int s, const struct ctx *ctx)
{
	const struct cxx_func *fn = plan_func(w->pl, f);
	const struct cxx_stmt *st = &fn->body.stmts[s];
	int call;
	const struct rule_trace_rule *r = decide_stmt(w, f, s, ctx, &call);
	struct ctx c2 = *ctx;

	if (r && r->kind == RULE_skip) {
		/* shown only when a hot or wrap rule would have taken it */
		const struct cxx_call *c = &fn->body.calls[call];
		bool shadowed = false;
		for (const struct rule_trace_rule *q = w->p->rules; q < r && !shadowed; q++) {
			if (q->kind == RULE_hot && ctx->hot_ok && re_match(w, q->match, c->name))
				shadowed = true;
			else if (q->kind == RULE_wrap && re_match(w, q->match, stmt_text(w, w->pl->units[f.unit].file, st->range)))
				shadowed = true;
		}
		if (shadowed)
			add_note(w, PLAN_hot, PLAN_FATE_SKIPPED, f, s, st->range, ctx, xstrdup(c->callee), rule_where(r));
	} else if (r) {
		const struct cxx_call *c = &fn->body.calls[call];
		char *name = rule_kebab_case(c->name ? c->name : "");
		enum plan_kind kind = r->kind == RULE_wrap ? PLAN_wrap : PLAN_hot;
		int prev = prev_sibling_stmt(&fn->body, s);
		bool skip_return = false;
		char *why = NULL;
		if (st->kind == CXX_STMT_RETURN) {
			const struct src_file *file = w->pl->units[f.unit].file;
			uint32_t p = st->range.start + 6;
			while (p < st->range.end && (file->data[p] == ' ' || file->data[p] == '\t' || file->data[p] == '\n'))
				p++;
			if (st->owner != CXX_NONE)
				why = xstrdup("a return from a lambda is not wrapped");
			else if (plan_func_is_void(fn))
				why = xstrdup("a return in a void function cannot be wrapped");
			else if (p < st->range.end && file->data[p] == '{')
				why = xstrdup("a return of a braced list cannot be wrapped");
			skip_return = why != NULL;
		}
		if (skip_return) {
			add_note(w, kind, PLAN_FATE_SKIPPED, f, s, st->range, ctx, xstrdup(c->callee), why);
		} else {
			int n = add_point(w, kind, f, s, st->range, r, ctx, name, prev, next_sibling_stmt(&fn->body, s));
			w->pl->nodes[n].call = call;
			w->pl->nodes[n].hoist = st->kind == CXX_STMT_RETURN;
			c2 = child_ctx(w, n, ctx);
		}
		free(name);
	}
	walk_calls_of(w, f, s, &c2);
	walk_block(w, f, s, &c2); /* lambdas */
}

static void walk_stmt(struct walker *w, struct plan_fref f, int s, const struct ctx *ctx)
{
	const struct cxx_func *fn = plan_func(w->pl, f);
	const struct cxx_body *b = &fn->body;
	const struct cxx_stmt *st = &b->stmts[s];
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct rule_trace_rule *r;
	struct ctx c2;

	if (fi->point_at[s] >= 0)
		return;
	switch (st->kind) {
	case CXX_STMT_FOR:
	case CXX_STMT_WHILE:
	case CXX_STMT_DO: {
		const char *loop_phase = phase_of_loop(w, f, s);
		struct ctx lc = *ctx;
		/* a loop's own phase holds for its point and inside it */
		if (loop_phase) {
			lc.phase = loop_phase;
			ctx = &lc;
		}
		walk_calls_of(w, f, s, ctx);
		r = decide_construct(w, RULE_loop, RULE_TARGET_loop, st->text ? st->text : "");
		if (r && r->kind == RULE_skip) {
			add_note(w, PLAN_loop, PLAN_FATE_SKIPPED, f, s, st->body, ctx, xstrdup(st->text ? st->text : ""),
				 rule_where(r));
			return;
		}
		if (r) {
			char *name = rule_kebab_case(st->var ? st->var : "");
			int n = add_point(w, PLAN_loop, f, s, st->body, r, ctx, name, first_child_stmt(b, s),
					  last_child_stmt(b, s));
			free(name);
			c2 = child_ctx(w, n, ctx);
		} else {
			c2 = *ctx;
			c2.hot_ok = false; /* a loop without a point: nothing hot inside is timed per iteration */
		}
		walk_block(w, f, s, &c2);
		return;
	}
	case CXX_STMT_ARM:
		walk_calls_of(w, f, s, ctx);
		r = st->arm == CXX_ARM_ELSE || st->arm == CXX_ARM_MACRO
			    ? NULL
			    : decide_construct(w, RULE_branch, RULE_TARGET_branch, st->text ? st->text : "");
		if (r && r->kind == RULE_skip) {
			add_note(w, PLAN_branch, PLAN_FATE_SKIPPED, f, s, st->body, ctx, xstrdup(st->text), rule_where(r));
			return;
		}
		if (r) {
			char *name = cond_name_var(st->text);
			int n = add_point(w, PLAN_branch, f, s, st->body, r, ctx, name, first_child_stmt(b, s),
					  last_child_stmt(b, s));
			free(name);
			c2 = child_ctx(w, n, ctx);
		} else {
			c2 = *ctx;
		}
		walk_block(w, f, s, &c2);
		return;
	case CXX_STMT_EXPR:
	case CXX_STMT_RETURN:
		walk_simple(w, f, s, ctx);
		return;
	default:
		walk_calls_of(w, f, s, ctx);
		walk_block(w, f, s, ctx);
		return;
	}
}

/* A region starting at statement s: its last statement, or -1. */
static int region_end(struct walker *w, struct plan_fref f, int s, const struct rule_trace_rule **rule)
{
	const struct cxx_body *b = &plan_func(w->pl, f)->body;
	const struct src_file *file = w->pl->units[f.unit].file;
	struct plan_finfo *fi = plan_finfo(w->pl, f);

	for (size_t i = w->p->nrules; i-- > 0;) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		if (r->kind != RULE_region || !re_match(w, r->match, stmt_text(w, file, b->stmts[s].range)))
			continue;
		for (int e = s; e >= 0; ) {
			if (fi->point_at[e] < 0 && re_match(w, r->until, stmt_text(w, file, b->stmts[e].range))) {
				*rule = r;
				return e;
			}
			/* next sibling */
			{
				int parent = b->stmts[e].parent;
				uint32_t end = b->stmts[e].range.end;
				int j = e + 1;
				while ((size_t)j < b->nstmts && b->stmts[j].range.start < end)
					j++;
				e = ((size_t)j < b->nstmts && b->stmts[j].parent == parent) ? j : -1;
			}
		}
	}
	return -1;
}

static void walk_block(struct walker *w, struct plan_fref f, int parent, const struct ctx *ctx)
{
	const struct cxx_body *b = &plan_func(w->pl, f)->body;
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	size_t start = parent < 0 ? 0 : (size_t)parent + 1;
	uint32_t end = parent < 0 ? UINT32_MAX : b->stmts[parent].range.end;
	int region_last = -1;
	struct ctx rctx;
	bool in_region = false;

	for (size_t s = start; s < b->nstmts && b->stmts[s].range.start < end; s++) {
		const struct rule_trace_rule *rr = NULL;
		int e;
		if (b->stmts[s].parent != parent)
			continue;
		if (!in_region && w->have_region && fi->point_at[s] < 0 && (e = region_end(w, f, (int)s, &rr)) >= 0) {
			struct cxx_range scope = { b->stmts[s].range.start, b->stmts[e].range.end };
			int n = add_point(w, PLAN_region, f, (int)s, scope, rr, ctx, "", prev_sibling_stmt(b, (int)s),
					  next_sibling_stmt(b, e));
			w->pl->nodes[n].stmt_last = e;
			rctx = child_ctx(w, n, ctx);
			in_region = true;
			region_last = e;
		}
		walk_stmt(w, f, (int)s, in_region ? &rctx : ctx);
		if (in_region && (int)s == region_last)
			in_region = false;
	}
}

static void walk_function(struct walker *w, struct plan_fref t, const struct ctx *ctx)
{
	struct plan_finfo *fi = plan_finfo(w->pl, t);
	const struct cxx_func *fn = plan_func(w->pl, t);
	const struct rule_trace_rule *r;
	const char *phase;
	struct ctx c2;

	if (fi->visited || w->pl->units[t.unit].runtime)
		return;
	fi->visited = true;
	r = decide_function(w, t);
	phase = phase_of(w, t);
	c2 = *ctx;
	if (r && r->kind == RULE_skip) {
		add_note(w, PLAN_function, PLAN_FATE_SKIPPED, t, -1, fn->body_range, ctx, xstrdup(fn->qualified_name),
			 rule_where(r));
		return;
	}
	if (r && r->kind == RULE_merge) {
		add_note(w, PLAN_function, PLAN_FATE_MERGED, t, -1, fn->body_range, ctx, xstrdup(fn->qualified_name),
			 rule_where(r));
		walk_block(w, t, -1, ctx);
		return;
	}
	if (phase)
		c2.phase = phase;
	if (r) {
		char *name = func_name_var(fn);
		int n = add_point(w, PLAN_function, t, -1, fn->body_range, r, &c2, name, first_child_stmt(&fn->body, -1),
				  last_child_stmt(&fn->body, -1));
		free(name);
		c2 = child_ctx(w, n, &c2);
	}
	walk_block(w, t, -1, &c2);
}

/* ------------------------------------------------------------ density */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void density(struct plan *pl)
{
	const char **labels = xcalloc(pl->nnodes + 1, sizeof(char *));

	for (int core = 0; core < 2; core++) {
		size_t n = 0, d = 0;
		unsigned bit = core == 0 ? PLAN_CORE_AIC : PLAN_CORE_AIV;
		for (size_t i = 0; i < pl->nnodes; i++) {
			const struct plan_node *nd = &pl->nodes[i];
			if ((nd->fate == PLAN_FATE_INSERT || nd->fate == PLAN_FATE_PRESENT) && (nd->core & bit))
				labels[n++] = nd->label;
		}
		xqsort(labels, n, sizeof(*labels), cmp_str);
		for (size_t i = 0; i < n; i++)
			if (i == 0 || strcmp(labels[i], labels[i - 1]) != 0)
				d++;
		pl->density[core] = (unsigned)d;
	}
	free(labels);
}

static int cmp_unres(const void *a, const void *b)
{
	return strcmp(((const struct plan_unresolved *)a)->callee, ((const struct plan_unresolved *)b)->callee);
}

void plan_walk(struct plan *pl, struct diag *diag)
{
	struct walker w;
	struct plan_fref *roots = NULL;
	size_t nroots = 0, cap = 0;

	memset(&w, 0, sizeof(w));
	w.pl = pl;
	w.diag = diag;
	w.p = pl->policy;
	w.unres = plan_map_new();
	w.unfollowed = plan_map_new();
	for (size_t i = 0; i < w.p->nrules; i++) {
		if (w.p->rules[i].kind == RULE_region)
			w.have_region = true;
		if (w.p->rules[i].kind == RULE_wrap)
			w.have_wrap = true;
	}
	for (size_t u = 0; u < pl->nunits; u++) {
		const struct cxx_outline *ol = pl->units[u].outline;
		if (pl->units[u].runtime || is_skip_file(&w, u))
			continue;
		for (size_t k = 0; k < ol->nfuncs; k++) {
			struct plan_fref f = { u, (int)k };
			int rr = root_rule(&w, &ol->funcs[k]);
			if (ol->funcs[k].def == CXX_DEF_BODY && rr >= 0) {
				XGROW(roots, cap, nroots + 1);
				roots[nroots++] = f;
				plan_finfo(pl, f)->is_root = true;
				plan_finfo(pl, f)->root_rule = rr;
			}
		}
		for (size_t k = 0; k < ol->nunfollowed; k++) {
			const char *q = ol->unfollowed[k].qualified_name, *last = q;
			char *name;
			for (const char *s = q; *s; s++)
				if (s[0] == ':' && s[1] == ':')
					last = s + 2;
			name = xstrndup(last, strcspn(last, "<"));
			plan_map_add(w.unfollowed, name, u, (int)k);
			free(name);
		}
	}
	propagate(pl, roots, nroots);
	for (size_t i = 0; i < nroots; i++) {
		struct plan_finfo *fi = plan_finfo(pl, roots[i]);
		const struct cxx_func *fn = plan_func(pl, roots[i]);
		struct ctx c0 = { -1, 0, NULL, true };
		int n;
		if (!fi->is_root || fi->visited)
			continue;
		fi->visited = true;
		c0.phase = phase_of(&w, roots[i]);
		n = add_point(&w, PLAN_root, roots[i], -1, fn->body_range, NULL, &c0, "", first_child_stmt(&fn->body, -1),
			      last_child_stmt(&fn->body, -1));
		pl->nroots++;
		c0 = child_ctx(&w, n, &c0);
		walk_block(&w, roots[i], -1, &c0);
	}
	/* functions the scanner left out that a rule would instrument */
	for (size_t u = 0; u < pl->nunits; u++) {
		const struct cxx_outline *ol = pl->units[u].outline;
		if (pl->units[u].runtime)
			continue;
		for (size_t k = 0; k < ol->nunfollowed; k++) {
			const struct cxx_unfollowed *uf = &ol->unfollowed[k];
			bool hit = false;
			for (size_t r = 0; r < w.p->nroots && !hit; r++)
				hit = w.p->roots[r].at && re_match(&w, w.p->roots[r].at, uf->qualified_name);
			for (size_t i = w.p->nrules; i-- > 0 && !hit;) {
				const struct rule_trace_rule *r = &w.p->rules[i];
				if ((r->kind == RULE_function || r->kind == RULE_skip || r->kind == RULE_merge) &&
				    (r->kind == RULE_function || r->target == RULE_TARGET_function) &&
				    re_match(&w, r->match, uf->qualified_name)) {
					hit = r->kind == RULE_function;
					break;
				}
			}
			if (hit) {
				diag_at(diag, DIAG_ERROR, src_loc_make(pl->units[u].file, uf->name_range.start, uf->name_range.end),
					"the scanner could not follow '%s', which the rules instrument", uf->qualified_name);
				pl->errors++;
			}
		}
	}
	if (nroots == 0)
		warn_no_root(&w);
	density(pl);
	xqsort(pl->unresolved, pl->nunresolved, sizeof(*pl->unresolved), cmp_unres);
	free(roots);
	free(w.last_child);
	free(w.prev_sibling);
	free(w.text);
	free(w.subj);
	plan_map_free(w.unres);
	plan_map_free(w.unfollowed);
}
