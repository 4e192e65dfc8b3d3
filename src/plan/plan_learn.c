/* What `learn` writes for an existing pair that the rules do not put back:
 * the rules statement, over names, kinds and positions, that times what the
 * pair times under its label (a function's body; a loop's body; one call, at
 * its call when the callee is the sources' own, else by its name and #N; a
 * run of statements from one call to another, by #N; a whole loop or if
 * statement, `whole`, by its loop variable or a call it makes; a marker
 * pair before a call, `hot ... mark`), or why none can. See plan.h. */
#include <stdlib.h>
#include <string.h>

#include "cxx_nav.h"
#include "plan_walk.h"
#include "rule_regex.h"
#include "strbuf.h"
#include "xalloc.h"

char *plan_re_quote(const char *pre, const char *s, size_t n, const char *post)
{
	struct strbuf b = { 0 };

	strbuf_puts(&b, pre);
	for (size_t i = 0; i < n; i++) {
		if (strchr("\\^$.|?*+()[]{}/", s[i]))
			strbuf_putc(&b, '\\');
		strbuf_putc(&b, s[i]);
	}
	strbuf_puts(&b, post);
	return strbuf_take(&b);
}

/* `"text"` with its quotes and backslashes escaped, or NULL when it cannot
 * be written in a rules string (a newline). */
static char *rules_string(const char *s)
{
	struct strbuf b = { 0 };

	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == '"' || *p == '\\' || *p == '{' || *p == '}')
			return NULL; /* (a rules label cannot hold it, or reads it as a template) */
	strbuf_putc(&b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_putc(&b, '\\');
		strbuf_putc(&b, *s);
	}
	strbuf_putc(&b, '"');
	return strbuf_take(&b);
}

static bool is_ident(const char *s)
{
	if (!s || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* ` extra X index Y` as the pair's B records them (MoeTracing(TP, index),
 * MoeTracing(TP, extra, index)), or "". */
static char *index_clauses(const struct cxx_point *p)
{
	struct strbuf b = { 0 };
	const char *what[2] = { NULL, NULL };

	if (p->nextra == 1)
		what[1] = p->extra[0];
	else if (p->nextra == 2)
		what[0] = p->extra[0], what[1] = p->extra[1];
	for (int i = 0; i < 2; i++) {
		if (!what[i])
			continue;
		strbuf_puts(&b, i == 0 ? " extra " : " index ");
		if (is_ident(what[i])) {
			strbuf_puts(&b, what[i]);
		} else {
			char *q = rules_string(what[i]);
			strbuf_puts(&b, q ? q : "\"0\"");
			free(q);
		}
	}
	return strbuf_take(&b);
}

/* The statements of work (not points, not plain declarations) from `from`
 * to `to`, siblings: the first and the last, their number. */
static int work_run(struct plan_walker *w, struct plan_fref f, int from, int to, int *first, int *last)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct plan_finfo *fi = plan_finfo(w->pl, f);
	int n = 0;

	*first = *last = -1;
	for (int s = from; s >= 0 && s != to; s = cxx_next_sibling(b, s)) {
		if (fi->point_at[s] >= 0 || plan_plain_decl(w, f, s))
			continue;
		if (*first < 0)
			*first = s;
		*last = s;
		n++;
	}
	return n;
}

/* The first call of statement s that is not a trace point and makes a call. */
static const struct cxx_call *stmt_call(struct plan_walker *w, struct plan_fref f, int s)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct plan_finfo *fi = plan_finfo(w->pl, f);

	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++) {
		const struct cxx_call *c = &b->calls[fi->call_order[k]];
		if (c->name && !plan_is_trace_call(c) && plan_makes_call(w->pl, f, c))
			return c;
	}
	return NULL;
}

/* Does `text` hold `word` as a whole identifier? */
static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text ? strstr(text, word) : NULL; p; p = strstr(p + 1, word))
		if ((p == text || !is_ident((char[]){ p[-1], '\0' })) && !is_ident((char[]){ p[n] ? p[n] : ' ', '\0' }))
			return true;
	return false;
}

/* How a loop rule picks loop statement s of body b: `/\bVAR\b/` by its
 * variable, with `#N` when other loops of the body name it too; `/^HEADER/`
 * when it has no variable; NULL when it has neither. */
static char *loop_pick(const struct cxx_body *b, int s)
{
	const char *var = b->stmts[s].var, *text = b->stmts[s].text;

	if (var && is_ident(var)) {
		unsigned nth = 0, all = 0;
		char *q, *out;
		for (size_t t = 0; t < b->nstmts; t++)
			if (cxx_stmt_is_loop(&b->stmts[t]) && has_word(b->stmts[t].text, var)) {
				all++;
				if ((int)t <= s)
					nth++;
			}
		q = plan_re_quote("\\b", var, strlen(var), "\\b");
		out = all > 1 ? xasprintf("/%s/ #%u", q, nth) : xasprintf("/%s/", q);
		free(q);
		return out;
	}
	if (text && text[0]) {
		size_t n = strlen(text) < 60 ? strlen(text) : 60;
		unsigned nth = 0, all = 0;
		char *q = plan_re_quote("^", text, n, ""), *out;
		for (size_t t = 0; t < b->nstmts; t++)
			if (cxx_stmt_is_loop(&b->stmts[t]) && b->stmts[t].text && strncmp(b->stmts[t].text, text, n) == 0) {
				all++;
				if ((int)t <= s)
					nth++;
			}
		out = all > 1 ? xasprintf("/%s/ #%u", q, nth) : xasprintf("/%s/", q);
		free(q);
		return out;
	}
	return NULL;
}

/* Is statement s of f inside an #if group that does not hold statement `outside` too? */
static bool in_group(const struct plan *pl, struct plan_fref f, int s, int outside)
{
	const struct cxx_outline *ol = pl->units[f.unit].outline;
	const struct cxx_body *b = &plan_func(pl, f)->body;

	for (size_t c = 0; c < ol->nconds; c++)
		if (cxx_range_contains(ol->conds[c].range, b->stmts[s].range) &&
		    !cxx_range_contains(ol->conds[c].range, b->stmts[outside].range))
			return true;
	return false;
}

/* The first call made inside statement s (at any depth) that is not a trace point. */
static const struct cxx_call *first_call_in(struct plan_walker *w, struct plan_fref f, int s)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct cxx_call *best = NULL;

	for (size_t k = 0; k < b->ncalls; k++) {
		const struct cxx_call *c = &b->calls[k];
		if (c->stmt < 0 || !c->name || plan_is_trace_call(c) || !plan_makes_call(w->pl, f, c) ||
		    !cxx_range_contains(b->stmts[s].range, c->range))
			continue;
		if (!best || c->range.start < best->range.start)
			best = c;
	}
	return best;
}

/* Does any function reached from t (t included) hold a point? */
static bool holds_points(struct plan_walker *w, struct plan_fref t, int depth)
{
	const struct cxx_body *b = plan_body_of(w, t);

	if (b->npoints)
		return true;
	if (depth > 8)
		return false;
	for (size_t c = 0; c < b->ncalls; c++) {
		struct plan_fref to[PLAN_RESOLVE_MAX];
		bool quiet;
		size_t nt = plan_resolve_call(w->pl, t, &b->calls[c], to, PLAN_RESOLVE_MAX, &quiet);
		for (size_t i = 0; i < nt; i++)
			if (holds_points(w, to[i], depth + 1))
				return true;
	}
	return false;
}

/* `#N` of statement s whose head starts as its own does: its regex and N. */
static char *head_at(struct plan_walker *w, struct plan_fref f, int s, struct diag *diag)
{
	const char *head = plan_stmt_head(w, f, s);
	size_t n = strcspn(head, "(");
	char *re_text, *out = NULL;
	struct rule_regex *re;

	if (head[n] == '(' && n > 0 && n <= 80) {
		re_text = plan_re_quote("^", head, n + 1, ""); /* a call at its start: its name */
	} else {
		/* a declaration or a plain statement: the name it starts with (the
		 * type's, `BlockScheduler blockScheduler;`; the variable's, `n++;`) */
		size_t id = 0;
		while ((head[id] >= 'A' && head[id] <= 'Z') || (head[id] >= 'a' && head[id] <= 'z') ||
		       (head[id] >= '0' && head[id] <= '9') || head[id] == '_' || (head[id] == ':' && head[id + 1] == ':') ||
		       (id > 0 && head[id] == ':' && head[id - 1] == ':'))
			id++;
		if (id == 0)
			return NULL; /* no name at its start */
		re_text = plan_re_quote("^", head, id, "\\b");
	}
	re = rule_regex_compile(re_text, "", src_loc_make(NULL, 0, 0), diag);
	for (unsigned k = 1; re && k <= (unsigned)s + 1 && k <= 10000; k++)
		if (plan_nth_stmt(w, f, s, re, k, false)) {
			out = xasprintf("/%s/ #%u", re_text, k);
			break;
		}
	rule_regex_free(re);
	free(re_text);
	return out;
}

static char *in_function(const struct cxx_func *fn, const char *rule)
{
	char *q = plan_re_quote("^", fn->qualified_name, strlen(fn->qualified_name), "$");
	char *s = xasprintf("in function /%s/ { %s }", q, rule);

	free(q);
	return s;
}

char *plan_learn_statement(struct plan *pl, const struct plan_hand *h, char **why, struct diag *diag)
{
	struct plan_walker w;
	struct plan_fref f = { h->unit, h->func };
	const struct cxx_func *fn = plan_func(pl, f);
	const struct cxx_body *b = &fn->body;
	const struct cxx_point *p = &b->points[plan_finfo(pl, f)->point_at[h->b_stmt]];
	char *label = rules_string(h->label), *idx, *out = NULL;
	int first, last, n, parent = b->stmts[h->b_stmt].parent;

	*why = NULL;
	if (!label) {
		*why = xstrdup("its label cannot be written in a rules string");
		return NULL;
	}
	memset(&w, 0, sizeof(w));
	w.pl = pl;
	w.p = pl->policy;
	w.diag = diag;
	idx = index_clauses(p);
	n = work_run(&w, f, cxx_next_sibling(b, h->b_stmt), h->e_stmt, &first, &last);
	if (n > 1) {
		/* one statement of work the build always compiles, the others in #if
		 * groups around it (`#ifdef SYNC_MODE SyncAll(); #endif`): the pair
		 * is that statement's, as apply spans a point over such groups */
		int only = -1, k = 0;
		for (int t = first; t >= 0; t = t == last ? -1 : cxx_next_sibling(b, t)) {
			if (plan_finfo(pl, f)->point_at[t] >= 0 || plan_plain_decl(&w, f, t) ||
			    in_group(pl, f, t, h->b_stmt))
				continue;
			only = t;
			k++;
		}
		if (k == 1)
			first = last = only, n = 1;
	}
	if (n == 0) {
		/* declarations only (`BlockScheduler s; BlockMmad m(res);`): a region
		 * over them by the names of their types; nothing at all: a marker */
		int s0 = -1, s1 = -1;
		for (int t = cxx_next_sibling(b, h->b_stmt); t >= 0 && t != h->e_stmt; t = cxx_next_sibling(b, t))
			if (plan_finfo(pl, f)->point_at[t] < 0) {
				if (s0 < 0)
					s0 = t;
				s1 = t;
			}
		if (s0 < 0) {
			/* a marker: `hot ... mark` on the call of the statement after it */
			int next = cxx_next_sibling(b, h->e_stmt);
			const struct cxx_call *c = next >= 0 && (b->stmts[next].kind == CXX_STMT_EXPR ||
								 b->stmts[next].kind == CXX_STMT_RETURN)
							   ? stmt_call(&w, f, next) : NULL;
			struct rule_trace_rule r;
			char *q = c ? plan_re_quote("^", c->name, strlen(c->name), "$") : NULL;
			memset(&r, 0, sizeof(r));
			r.match = q ? rule_regex_compile(q, "", src_loc_make(NULL, 0, 0), diag) : NULL;
			for (unsigned k = 1; r.match && k <= 10000 && !out; k++) {
				r.nth = k;
				if (plan_nth_call(&w, f, c, &r)) {
					char *rule = xasprintf("hot /%s/ #%u %s mark;", q, k, label);
					out = in_function(fn, rule);
					free(rule);
				}
			}
			rule_regex_free(r.match);
			free(q);
			if (!out)
				*why = xstrdup("a marker pair (nothing between its B and its E) not before a call: no rule form puts one");
		} else {
			char *from = head_at(&w, f, s0, diag), *to = head_at(&w, f, s1, diag);
			if (from && to) {
				char *rule = xasprintf("region from %s to %s %s%s;", from, to, label, idx);
				out = in_function(fn, rule);
				free(rule);
			} else {
				*why = xstrdup("statements that do not start with a name: no names to say them by");
			}
			free(from);
			free(to);
		}
	} else {
		int bf, bl;
		int nb = work_run(&w, f, cxx_first_child(b, parent), -1, &bf, &bl);
		bool whole = nb == n && bf == first && bl == last;
		if (whole && parent == CXX_NONE) {
			char *q = plan_re_quote("^", fn->qualified_name, strlen(fn->qualified_name), "$");
			out = xasprintf("function /%s/ %s%s;", q, label, idx);
			free(q);
		} else if (whole && parent >= 0 && cxx_stmt_is_loop(&b->stmts[parent])) {
			char *q = loop_pick(b, parent);
			if (q) {
				char *r = xasprintf("loop %s %s%s;", q, label, idx);
				out = in_function(fn, r);
				free(q);
				free(r);
			} else {
				*why = xstrdup("the body of a loop with no loop variable: no rule names it");
			}
		} else if (whole && parent >= 0 && b->stmts[parent].kind == CXX_STMT_ARM &&
			   b->stmts[parent].arm != CXX_ARM_ELSE && b->stmts[parent].arm != CXX_ARM_MACRO) {
			/* an arm's body: a branch rule picking the arm by a call of its condition */
			const struct cxx_call *made = first_call_in(&w, f, parent);
			if (made) {
				char *q = plan_re_quote("^", made->name, strlen(made->name), "$");
				char *rule = xasprintf("branch calls /%s/ %s%s;", q, label, idx);
				out = in_function(fn, rule);
				free(q);
				free(rule);
			} else {
				*why = xstrdup("the body of an arm whose code makes no call: no name to pick it by");
			}
		} else if (n == 1) {
			const struct cxx_stmt *st = &b->stmts[first];
			const struct cxx_call *c = st->kind == CXX_STMT_EXPR || st->kind == CXX_STMT_RETURN ? stmt_call(&w, f, first)
													   : NULL;
			struct plan_fref t[PLAN_RESOLVE_MAX];
			bool quiet;
			size_t nt = c ? plan_resolve_call(pl, f, c, t, PLAN_RESOLVE_MAX, &quiet) : 0;
			if (!c && (cxx_stmt_is_loop(st) || st->kind == CXX_STMT_IF)) {
				/* the whole statement (`whole`), picked by its loop variable or
				 * the first call it makes (of its first arm) */
				int in = st->kind == CXX_STMT_IF ? cxx_first_child(b, first) : first;
				const struct cxx_call *made = in >= 0 ? first_call_in(&w, f, in) : NULL;
				char *rule = NULL;
				char *lq = cxx_stmt_is_loop(st) ? loop_pick(b, first) : NULL;
				if (lq) {
					rule = xasprintf("loop %s %s whole%s;", lq, label, idx);
					free(lq);
				} else if (made) {
					char *q = plan_re_quote("^", made->name, strlen(made->name), "$");
					rule = xasprintf("%s calls /%s/ %s whole%s;", cxx_stmt_is_loop(st) ? "loop" : "branch", q,
							 label, idx);
					free(q);
				}
				if (rule) {
					out = in_function(fn, rule);
					free(rule);
				} else {
					*why = xstrdup("a whole statement that makes no call and has no loop variable: no name to pick it by");
				}
			} else if (!c) {
				*why = xstrdup("a compound statement that is no loop and no if: no rule form times it");
			} else if (nt == 1 && !pl->units[t[0].unit].runtime && !holds_points(&w, t[0], 0) &&
				   plan_only_call_site(&w, t[0], &(struct plan_fref){ 0, 0 }, &(int){ 0 })) {
				/* (called from one place: an opaque rule's point goes around each call) */
				const struct cxx_func *cf = plan_func(pl, t[0]);
				char *q = plan_re_quote("^", cf->qualified_name, strlen(cf->qualified_name), "$");
				out = xasprintf("function /%s/ %s%s opaque;", q, label, idx);
				free(q);
			} else if (nt == 0) {
				struct rule_trace_rule r;
				char *q = plan_re_quote("^", c->name, strlen(c->name), "$");
				memset(&r, 0, sizeof(r));
				r.match = rule_regex_compile(q, "", src_loc_make(NULL, 0, 0), diag);
				for (unsigned k = 1; r.match && k <= 10000; k++) {
					r.nth = k;
					if (plan_nth_call(&w, f, c, &r)) {
						char *rule = xasprintf("hot /%s/ #%u %s;", q, k, label);
						out = in_function(fn, rule);
						free(rule);
						break;
					}
				}
				rule_regex_free(r.match);
				free(q);
			} else {
				/* a call of the sources' code that holds points (or of several
				 * functions): the statement, by the call's name and #N */
				char *at = head_at(&w, f, first, diag);
				if (at) {
					char *rule = xasprintf("wrap call %s %s%s;", at, label, idx);
					out = in_function(fn, rule);
					free(rule);
					free(at);
				} else {
					*why = xasprintf("a call of '%s' not at the start of its statement", c->name);
				}
			}
		} else {
			char *from = head_at(&w, f, first, diag), *to = head_at(&w, f, last, diag);
			if (from && to) {
				char *rule = xasprintf("region from %s to %s %s%s;", from, to, label, idx);
				out = in_function(fn, rule);
				free(rule);
			} else {
				*why = xstrdup("a run of statements that does not start and end with calls: no names to say it by");
			}
			free(from);
			free(to);
		}
	}
	free(idx);
	free(label);
	free(w.text);
	free(w.subj);
	return out;
}
