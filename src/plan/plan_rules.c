/* Which trace rule decides a construct (a transparent rule decides it too:
 * no point of its own). Rules are tried from the last one
 * read to the first, so an operator's rules win over the defaults they
 * include; a rule written in an `in` block applies only to code of the
 * functions (files) the block names; `calls /RE/` asks for a call of the
 * construct's own code. Also: which functions are intra-core pipe
 * synchronisation helpers, whose calls are tile level. */
#include <stdlib.h>
#include <string.h>

#include "cxx_nav.h"
#include "plan_walk.h"
#include "xalloc.h"

/* The two marks of plan_tile_helper's answers (plan_walk.h). */
const struct rule_trace_rule plan_helper_marks[2];

/* PCRE2's JIT code may load a few bytes past the subject's end (harmless,
 * inside the allocation, but uninitialised for valgrind): subjects are
 * matched from a copy followed by zeroed padding. */
static bool re_match_uncounted(struct plan_walker *w, const struct rule_regex *re, const char *s)
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

/* A match marks the rules of `re` as matching something (plan lists the
 * operator's own rules that never do). */
bool plan_re_match(struct plan_walker *w, const struct rule_regex *re, const char *s)
{
	if (!re_match_uncounted(w, re, s))
		return false;
	if (w->rule_hit)
		for (size_t i = 0; i < w->p->nrules; i++) {
			const struct rule_trace_rule *r = &w->p->rules[i];
			if (r->match == re || r->until == re || r->calls == re)
				w->rule_hit[i] = true;
		}
	return true;
}

void plan_rule_won(struct plan_walker *w, const struct rule_trace_rule *r)
{
	if (w->rule_won && !plan_fallback_rule(w, r))
		w->rule_won[r - w->p->rules] = true;
}

/* Does rule r decide the construct `arg` stands for (the rule alone)? */
typedef bool (*applies_fn)(struct plan_walker *w, const struct rule_trace_rule *r, void *arg);

/* The rule that decides a construct: the last one read that applies to it.
 * The operator's own earlier rules that would apply too lose it to that
 * rule: the first rule each loses to is kept, so that one that never wins
 * is named with the rule that takes its constructs (plan_walk.c). Only
 * rules not settled yet are tried again, so this costs a walk with the
 * shipped rules alone nothing. */
static const struct rule_trace_rule *decide(struct plan_walker *w, applies_fn applies, void *arg)
{
	for (size_t i = w->p->nrules; i-- > 0;) {
		if (!applies(w, &w->p->rules[i], arg))
			continue;
		if (w->rule_won) {
			w->rule_won[i] = true;
			for (size_t j = i; j-- > 0;)
				if (w->rule_own[j] && !w->rule_won[j] && w->rule_taken_by[j] < 0 &&
				    applies(w, &w->p->rules[j], arg))
					w->rule_taken_by[j] = (int)i;
		}
		return &w->p->rules[i];
	}
	return NULL;
}

char *plan_rule_where(const struct rule_trace_rule *r)
{
	char *re = r->match ? rule_regex_text(r->match) : NULL;
	char *calls = r->calls ? rule_regex_text(r->calls) : NULL;
	char *s;
	const char *path = r->loc.file ? r->loc.file->path : "?";
	const char *base = strrchr(path, '/');
	bool target = r->kind == RULE_skip || r->kind == RULE_merge || r->kind == RULE_phase ||
		      r->kind == RULE_transparent;

	if (re && r->nth) {
		char *nth = xasprintf("%s #%u", re, r->nth);
		free(re);
		re = nth;
	}

	s = xasprintf("%s%s%s%s%s%s%s (%s:%zu)", rule_kind_name(r->kind), target ? " " : "",
		      target ? rule_target_name(r->target) : "", re ? " " : "", re ? re : "", calls ? " calls " : "",
		      calls ? calls : "", base ? base + 1 : path,
		      r->loc.file ? src_file_line(r->loc.file, r->loc.start) : (size_t)0);
	free(re);
	free(calls);
	return s;
}

/* Appends [from, to) of f to the walker's text buffer at *n, blanks
 * collapsed (*space: a blank is pending). */
static void text_add(struct plan_walker *w, const struct src_file *f, uint32_t from, uint32_t to, size_t *n,
		     bool *space)
{
	for (uint32_t i = from; i < to && i < f->len; i++) {
		char c = f->data[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			*space = *n > 0;
			continue;
		}
		if (*space)
			w->text[(*n)++] = ' ';
		*space = false;
		w->text[(*n)++] = c;
	}
}

const char *plan_stmt_text(struct plan_walker *w, const struct src_file *f, struct cxx_range r)
{
	size_t n = 0;
	bool space = false;

	XGROW(w->text, w->text_cap, (size_t)(r.end - r.start) + 1);
	text_add(w, f, r.start, r.end, &n, &space);
	w->text[n] = '\0';
	return w->text;
}

const char *plan_stmt_head(struct plan_walker *w, struct plan_fref fr, int s)
{
	const struct src_file *f = w->pl->units[fr.unit].file;
	const struct cxx_body *b = plan_body_of(w, fr);
	const struct cxx_stmt *st = &b->stmts[s];
	struct cxx_range body = st->body;
	uint32_t at = st->range.start;
	size_t n = 0;
	bool space = false;

	XGROW(w->text, w->text_cap, (size_t)(st->range.end - st->range.start) + 1);
	if (st->kind == CXX_STMT_IF && cxx_first_child(b, s) >= 0)
		body = b->stmts[cxx_first_child(b, s)].body; /* the chain: its first arm's */
	if (st->kind != CXX_STMT_EXPR && st->kind != CXX_STMT_RETURN && body.end > body.start) {
		text_add(w, f, at, body.start, &n, &space);
		w->text[n] = '\0';
		return w->text;
	}
	/* a simple statement: the lambdas written in it are cut to `{}` */
	for (size_t j = (size_t)s + 1; j < b->nstmts && b->stmts[j].range.start < st->range.end; j++) {
		const struct cxx_stmt *in = &b->stmts[j];
		if (in->kind != CXX_STMT_LAMBDA || in->body.start < at || in->body.end <= in->body.start)
			continue;
		text_add(w, f, at, in->body.start, &n, &space);
		if (space)
			w->text[n++] = ' ';
		space = false;
		w->text[n++] = '{';
		w->text[n++] = '}';
		at = in->body.end;
	}
	text_add(w, f, at, st->range.end, &n, &space);
	w->text[n] = '\0';
	return w->text;
}

bool plan_rule_in_scope(struct plan_walker *w, const struct rule_trace_rule *r, struct plan_fref f)
{
	for (const struct rule_in *b = r->in; b; b = b->up) {
		const char *subject = b->target == RULE_TARGET_file ? w->pl->units[f.unit].path
								    : plan_func(w->pl, f)->qualified_name;
		if (!plan_re_match(w, b->match, subject))
			return false;
	}
	return true;
}

static bool skip_file_applies(struct plan_walker *w, const struct rule_trace_rule *r, void *arg)
{
	const size_t *unit = arg;

	return r->kind == RULE_skip && r->target == RULE_TARGET_file && !r->in &&
	       plan_re_match(w, r->match, w->pl->units[*unit].path);
}

bool plan_is_skip_file(struct plan_walker *w, size_t unit)
{
	return decide(w, skip_file_applies, &unit) != NULL;
}

/* Is the call's statement inside statement s (s itself included), and, when
 * `own`, not inside a loop nested in s? */
static bool call_in(const struct cxx_body *b, int cs, int s, bool own)
{
	if (cs < 0)
		return false;
	for (int j = cs; j >= 0 && j != s; j = b->stmts[j].parent) {
		if (own && cxx_stmt_repeats(&b->stmts[j]))
			return false;
		if (b->stmts[j].parent == CXX_NONE)
			return false;
	}
	return cs >= 0 && (cs == s || cxx_range_contains(b->stmts[s].range, b->stmts[cs].range));
}

static bool calls_match_scan(struct plan_walker *w, const struct cxx_body *b, int s, bool own,
			     const struct rule_regex *re);

/* Does a call of statement s's code (s < 0: the whole function; `own`: not
 * counting loops nested in s) have a name matching re? */
static bool calls_match(struct plan_walker *w, struct plan_fref f, int s, bool own, const struct rule_regex *re)
{
	const struct cxx_body *b = &plan_func(w->pl, f)->body;
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	bool hit = false;

	/* the whole function's answer, asked for each decision about it, is kept */
	if (s < 0) {
		for (size_t i = 0; i < fi->ncalls_memo; i++)
			if (fi->calls_memo[i].re == re)
				return fi->calls_memo[i].hit;
		hit = calls_match_scan(w, b, s, own, re);
		fi->calls_memo = xrealloc(fi->calls_memo, (fi->ncalls_memo + 1) * sizeof(*fi->calls_memo));
		fi->calls_memo[fi->ncalls_memo].re = re;
		fi->calls_memo[fi->ncalls_memo++].hit = hit;
		return hit;
	}
	return calls_match_scan(w, b, s, own, re);
}

static bool calls_match_scan(struct plan_walker *w, const struct cxx_body *b, int s, bool own,
			     const struct rule_regex *re)
{

	for (size_t c = 0; c < b->ncalls; c++) {
		const struct cxx_call *cl = &b->calls[c];
		if (plan_is_trace_call(cl) || !cl->name)
			continue;
		if (s >= 0 && !call_in(b, cl->stmt, s, own))
			continue;
		if (plan_re_match(w, re, cl->name))
			return true;
	}
	return false;
}

/* Is a function calling t (`caller`, or any other on a path from a root)
 * in the `in` blocks of rule r? A function is instrumented once, whichever
 * call reaches it first: a rule scoped to one caller holds for it however
 * the calls are ordered. */
static bool called_in_scope(struct plan_walker *w, const struct rule_trace_rule *r, struct plan_fref t,
			    const struct plan_fref *caller)
{
	const struct plan_finfo *ti = plan_finfo(w->pl, t);

	if (caller && plan_rule_in_scope(w, r, *caller))
		return true;
	for (size_t i = 0; i < ti->ncallers; i++)
		if (plan_rule_in_scope(w, r, ti->callers[i]))
			return true;
	return false;
}

struct function_q {
	struct plan_fref t;
	const struct plan_fref *caller;
};

static bool function_applies(struct plan_walker *w, const struct rule_trace_rule *r, void *arg)
{
	const struct function_q *q = arg;
	bool applies = r->kind == RULE_function ||
		       ((r->kind == RULE_skip || r->kind == RULE_merge || r->kind == RULE_transparent) &&
			r->target == RULE_TARGET_function);

	if (r->in && !called_in_scope(w, r, q->t, q->caller))
		return false;
	if (applies && (!r->match || plan_re_match(w, r->match, plan_func(w->pl, q->t)->qualified_name)) &&
	    (!r->calls || calls_match(w, q->t, -1, false, r->calls)))
		return true;
	return r->kind == RULE_skip && r->target == RULE_TARGET_file &&
	       plan_re_match(w, r->match, w->pl->units[q->t.unit].path);
}

const struct rule_trace_rule *plan_decide_function(struct plan_walker *w, struct plan_fref t,
						   const struct plan_fref *caller)
{
	struct function_q q = { t, caller };
	const struct rule_trace_rule *r = decide(w, function_applies, &q);

	/* the fallback rules of a thin plan decide what the policy does not */
	if (!r && w->fb)
		for (size_t i = w->fb->nrules; i-- > 0;)
			if (function_applies(w, &w->fb->rules[i], &q))
				return &w->fb->rules[i];
	return r;
}

bool plan_fallback_rule(const struct plan_walker *w, const struct rule_trace_rule *r)
{
	return w->fb && r >= w->fb->rules && r < w->fb->rules + w->fb->nrules;
}

struct construct_q {
	struct plan_fref f;
	int s;
	enum rule_kind kind;
	enum rule_target target;
};

/* Which of the loops (arms but else arms) of the body, in source order,
 * whose text r matches, is statement q->s: 1 for the first. */
static unsigned nth_construct(struct plan_walker *w, const struct construct_q *q, const struct rule_trace_rule *r)
{
	const struct cxx_body *b = &plan_func(w->pl, q->f)->body;
	unsigned seen = 0;

	for (int t = 0; t <= q->s; t++) {
		const struct cxx_stmt *st = &b->stmts[t];
		bool kind = r->kind == RULE_loop ? cxx_stmt_is_loop(st)
						 : st->kind == CXX_STMT_ARM && st->arm != CXX_ARM_ELSE && st->arm != CXX_ARM_MACRO;
		if (kind && plan_re_match(w, r->match, st->text ? st->text : ""))
			seen++;
	}
	return seen;
}

static bool construct_applies(struct plan_walker *w, const struct rule_trace_rule *r, void *arg)
{
	const struct construct_q *q = arg;
	const struct cxx_stmt *st = &plan_func(w->pl, q->f)->body.stmts[q->s];

	if (!(r->kind == q->kind || ((r->kind == RULE_skip || r->kind == RULE_transparent) && r->target == q->target)))
		return false;
	if (r->in && !plan_rule_in_scope(w, r, q->f))
		return false;
	if (r->match && !plan_re_match(w, r->match, st->text ? st->text : ""))
		return false;
	if (r->nth && (r->kind == RULE_loop || r->kind == RULE_branch) && nth_construct(w, q, r) != r->nth)
		return false;
	return !r->calls || calls_match(w, q->f, q->s, q->kind == RULE_loop, r->calls);
}

const struct rule_trace_rule *plan_decide_construct(struct plan_walker *w, struct plan_fref f, int s,
						    enum rule_kind kind, enum rule_target target)
{
	struct construct_q q = { f, s, kind, target };

	return decide(w, construct_applies, &q);
}

static bool skip_call_applies(struct plan_walker *w, const struct rule_trace_rule *r, void *arg)
{
	const struct cxx_call *c = arg;

	return r->kind == RULE_skip && r->target == RULE_TARGET_call && !r->in &&
	       (plan_re_match(w, r->match, c->name) || plan_re_match(w, r->match, c->callee));
}

const struct rule_trace_rule *plan_skip_call_rule(struct plan_walker *w, const struct cxx_call *c)
{
	return decide(w, skip_call_applies, (void *)c);
}

/* (Whatever its scope: a rule of an `in` block matching here is not a
 * match of the rule, which plan lists when it has none.) */
static bool is_hot_name(struct plan_walker *w, const char *name)
{
	for (size_t i = 0; i < w->p->nrules; i++) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		if (r->kind == RULE_hot && (r->in ? re_match_uncounted(w, r->match, name) : plan_re_match(w, r->match, name)))
			return true;
	}
	return false;
}

const struct rule_trace_rule *plan_tile_helper(struct plan_walker *w, struct plan_fref f)
{
	size_t id = plan_fid(w->pl, f);
	const struct cxx_body *b = &plan_func(w->pl, f)->body;
	const struct rule_trace_rule *rule = NULL;

	if (w->helper[id] != PLAN_HELPER_UNKNOWN)
		return w->helper[id] == PLAN_HELPER_NO ? NULL : w->helper[id];
	w->helper[id] = PLAN_HELPER_NO; /* while deciding: recursion says no */
	for (size_t s = 0; s < b->nstmts; s++)
		if (cxx_stmt_repeats(&b->stmts[s]))
			return NULL;
	for (size_t c = 0; c < b->ncalls; c++) {
		const struct cxx_call *cl = &b->calls[c];
		const struct rule_trace_rule *r;
		struct plan_fref t[PLAN_MAX_TARGETS];
		bool lam;
		if (!cl->name || !plan_makes_call(w->pl, f, cl))
			continue;
		r = plan_skip_call_rule(w, cl);
		if (r && (!rule || r == rule)) {
			rule = r;
			continue;
		}
		if (r || is_hot_name(w, cl->name) || plan_resolve_call(w->pl, f, cl, t, PLAN_MAX_TARGETS, &lam) > 0)
			return NULL;
	}
	if (rule)
		w->helper[id] = rule;
	return rule;
}

/* Does every function call c reaches have a skip rule (function or file)?
 * Then the call is not hot either. */
static bool callee_skipped(struct plan_walker *w, struct plan_fref f, const struct cxx_call *c)
{
	struct plan_fref t[PLAN_MAX_TARGETS];
	bool lam;
	size_t nt = plan_resolve_call(w->pl, f, c, t, PLAN_MAX_TARGETS, &lam);

	for (size_t k = 0; k < nt; k++) {
		const struct rule_trace_rule *r = plan_decide_function(w, t[k], &f);
		if (!r || r->kind != RULE_skip)
			return false;
	}
	return nt > 0;
}

/* Does statement s make a call that is not a trace point (its own calls)? */
static bool stmt_calls(struct plan_walker *w, struct plan_fref f, int s)
{
	const struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = plan_body_of(w, f);

	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++)
		if (!plan_is_trace_call(&b->calls[fi->call_order[k]]))
			return true;
	return false;
}

bool plan_nth_stmt(struct plan_walker *w, struct plan_fref f, int s, const struct rule_regex *re, unsigned nth,
		   bool call_stmts)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct plan_finfo *fi = plan_finfo(w->pl, f);
	unsigned seen = 0;

	if (nth == 0)
		return true;
	for (int j = 0; j <= s && seen < nth; j++) {
		const struct cxx_stmt *st = &b->stmts[j];
		if (call_stmts ? (st->kind != CXX_STMT_EXPR && st->kind != CXX_STMT_RETURN) || !stmt_calls(w, f, j)
			       : st->kind == CXX_STMT_ARM || fi->point_at[j] >= 0) /* (a point is not code) */
			continue;
		if (plan_re_match(w, re, plan_stmt_head(w, f, j)))
			seen++;
		if (j == s)
			return seen == nth;
	}
	return false;
}

bool plan_nth_call(struct plan_walker *w, struct plan_fref f, const struct cxx_call *c,
		   const struct rule_trace_rule *r)
{
	const struct cxx_body *b = plan_body_of(w, f);
	unsigned seen = 0;

	if (r->nth == 0)
		return true;
	for (size_t k = 0; k < b->ncalls; k++) {
		const struct cxx_call *o = &b->calls[k];
		if (o->range.start > c->range.start || plan_is_trace_call(o) || !o->name || !plan_makes_call(w->pl, f, o))
			continue;
		if (plan_re_match(w, r->match, o->name))
			seen++;
	}
	return seen == r->nth;
}

struct stmt_q {
	struct plan_fref f;
	int s;
	const struct plan_ctx *ctx;
	const char *text; /* the statement's, once asked for */
	int call;         /* the call the deciding rule takes (set once: the first rule that applies) */
};

static bool stmt_applies(struct plan_walker *w, const struct rule_trace_rule *r, void *arg)
{
	struct stmt_q *q = arg;
	struct plan_finfo *fi = plan_finfo(w->pl, q->f);
	const struct cxx_body *b = &plan_func(w->pl, q->f)->body;
	int s = q->s;

	if (r->in && !plan_rule_in_scope(w, r, q->f))
		return false;
	if (r->kind == RULE_wrap) {
		if (!q->text)
			q->text = plan_stmt_head(w, q->f, s);
		if (!plan_re_match(w, r->match, q->text))
			return false;
		q->text = NULL; /* (plan_nth_stmt uses the buffer) */
		if (!plan_nth_stmt(w, q->f, s, r->match, r->nth, true))
			return false;
		for (int k = fi->call_first[s]; k < fi->call_first[s + 1] && q->call < 0; k++)
			if (!plan_is_trace_call(&b->calls[fi->call_order[k]]))
				q->call = fi->call_order[k];
		return true;
	}
	if (!((r->kind == RULE_hot && q->ctx->hot_ok) || (r->kind == RULE_skip && r->target == RULE_TARGET_call)))
		return false;
	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++) {
		const struct cxx_call *c = &b->calls[fi->call_order[k]];
		if (!plan_makes_call(w->pl, q->f, c))
			continue;
		if (!(plan_re_match(w, r->match, c->name) ||
		      (r->kind == RULE_skip && plan_re_match(w, r->match, c->callee))))
			continue;
		if (r->kind == RULE_hot && (plan_callee_has_point(w, q->f, c) || callee_skipped(w, q->f, c) ||
					    !plan_nth_call(w, q->f, c, r)))
			continue;
		if (q->call < 0)
			q->call = fi->call_order[k];
		return true;
	}
	return false;
}

const struct rule_trace_rule *plan_decide_stmt(struct plan_walker *w, struct plan_fref f, int s,
					       const struct plan_ctx *ctx, int *call)
{
	struct stmt_q q = { f, s, ctx, NULL, -1 };
	const struct rule_trace_rule *r;

	*call = -1;
	if (!stmt_calls(w, f, s))
		return NULL;
	r = decide(w, stmt_applies, &q);
	*call = q.call;
	return r;
}

/* The phase a rule gives: its name, with {name} and {Name} (of `written`,
 * the name as the source writes it: the function's, the file's stem, the
 * loop variable), {class} and {Class} (of fn's class) filled in. */
static const char *phase_name(struct plan_walker *w, const struct rule_trace_rule *r, const char *written,
			      const struct cxx_func *fn)
{
	static const char *const vars[] = { "{name}", "{Name}", "{class}", "{Class}" };
	char *out;

	if (!strchr(r->phase, '{'))
		return r->phase;
	out = xstrdup(r->phase);
	for (int v = 0; v < 4; v++) {
		char *at;
		while ((at = strstr(out, vars[v])) != NULL) {
			char *val = v == 0   ? plan_kebab_var(xstrdup(written ? written : ""))
				    : v == 1 ? xstrdup(written ? written : "")
				    : v == 2 ? plan_kebab_var(plan_class_var(fn))
					     : plan_class_var(fn);
			char *next = xasprintf("%.*s%s%s", (int)(at - out), out, val, at + strlen(vars[v]));
			free(val);
			free(out);
			out = next;
		}
	}
	return plan_keep_string(w, out);
}

struct phase_q {
	struct plan_fref f;
	const struct plan_fref *caller;
};

static bool phase_applies(struct plan_walker *w, const struct rule_trace_rule *r, void *arg)
{
	const struct phase_q *q = arg;

	if (r->kind != RULE_phase || (r->in && (!q->caller || !plan_rule_in_scope(w, r, *q->caller))))
		return false;
	if (r->target == RULE_TARGET_file)
		return plan_re_match(w, r->match, w->pl->units[q->f.unit].path);
	/* a Process(), Run(), ... is named for no stage: "{name}" of it names none
	 * (the first function reached names the phase; the stages below it theirs) */
	if (r->target == RULE_TARGET_function && r->phase && strstr(r->phase, "{name}") &&
	    plan_generic_method(plan_func(w->pl, q->f)->name))
		return false;
	return r->target == RULE_TARGET_function && plan_re_match(w, r->match, plan_func(w->pl, q->f)->qualified_name) &&
	       (!r->calls || calls_match(w, q->f, -1, false, r->calls));
}

const char *plan_phase_of(struct plan_walker *w, struct plan_fref f, const struct plan_fref *caller)
{
	const struct cxx_func *fn = plan_func(w->pl, f);
	struct phase_q q = { f, caller };
	const struct rule_trace_rule *r = decide(w, phase_applies, &q);
	const char *ph;
	char *k;

	if (!r)
		return NULL;
	if (r->target == RULE_TARGET_file) {
		const char *base = strrchr(w->pl->units[f.unit].path, '/');
		char *dot;
		k = xstrdup(base ? base + 1 : w->pl->units[f.unit].path);
		if ((dot = strchr(k, '.')) != NULL)
			*dot = '\0';
	} else {
		k = plan_func_name_var(fn);
	}
	ph = phase_name(w, r, k, fn);
	free(k);
	return ph;
}

const struct rule_trace_rule *plan_phase_region(struct plan_walker *w, struct plan_fref f, int s,
						const struct rule_trace_rule *const *open, size_t nopen, int *last,
						const char **phase)
{
	const struct cxx_func *fn = plan_func(w->pl, f);
	const struct cxx_body *b = &fn->body;

	for (size_t i = w->p->nrules; i-- > 0;) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		bool opened = false;
		int e = -1;
		for (size_t k = 0; k < nopen; k++)
			opened = opened || open[k] == r;
		if (r->kind != RULE_phase || r->target != RULE_TARGET_region || opened ||
		    (r->in && !plan_rule_in_scope(w, r, f)))
			continue;
		if (!plan_re_match(w, r->match, plan_stmt_head(w, f, s)) ||
		    !plan_nth_stmt(w, f, s, r->match, r->nth, false))
			continue;
		for (int k = s; k >= 0; k = cxx_next_sibling(b, k)) {
			e = k;
			if (r->until && plan_re_match(w, r->until, plan_stmt_head(w, f, k)) &&
			    plan_nth_stmt(w, f, k, r->until, r->until_nth, false))
				break;
			if (r->until && cxx_next_sibling(b, k) < 0)
				e = -1; /* no end in the block */
		}
		if (e < 0)
			continue;
		{
			char *k = plan_func_name_var(fn);
			*phase = phase_name(w, r, k, fn);
			free(k);
		}
		*last = e;
		return r;
	}
	return NULL;
}

/* The source text of loop statement s without the loops nested in it (each
 * cut down to one blank), newly allocated: a phase names the loop whose own
 * code matches, not every loop around it. */
static char *loop_own_text(struct plan_walker *w, struct plan_fref f, int s)
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
		if ((int)j == s || !cxx_stmt_repeats(in) || in->range.start < at || in->range.end > r.end ||
		    in->range.start <= r.start)
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

struct loop_phase_q {
	struct plan_fref f;
	int s;
	char *text; /* the loop's own text, once asked for */
};

static bool loop_phase_applies(struct plan_walker *w, const struct rule_trace_rule *r, void *arg)
{
	struct loop_phase_q *q = arg;

	if (r->kind != RULE_phase || r->target != RULE_TARGET_loop || (r->in && !plan_rule_in_scope(w, r, q->f)))
		return false;
	if (!q->text)
		q->text = loop_own_text(w, q->f, q->s);
	return plan_re_match(w, r->match, q->text);
}

const char *plan_phase_of_loop(struct plan_walker *w, struct plan_fref f, int s)
{
	struct loop_phase_q q = { f, s, NULL };
	const struct rule_trace_rule *r = decide(w, loop_phase_applies, &q);
	const char *phase = NULL;

	if (r) {
		const char *var = plan_func(w->pl, f)->body.stmts[s].var;
		phase = phase_name(w, r, var, plan_func(w->pl, f));
	}
	free(q.text);
	return phase;
}

bool plan_callee_has_point(struct plan_walker *w, struct plan_fref f, const struct cxx_call *c)
{
	struct plan_fref t[PLAN_MAX_TARGETS];
	bool lam;
	size_t nt = plan_resolve_call(w->pl, f, c, t, PLAN_MAX_TARGETS, &lam);

	for (size_t k = 0; k < nt; k++) {
		const struct rule_trace_rule *r = plan_decide_function(w, t[k], &f);
		if (r && r->kind == RULE_function && !plan_tile_helper(w, t[k]))
			return true;
	}
	return false;
}
