/* plan --positions FUNCTION: the statements of a function, each with the
 * rule forms that take it by position (`wrap call /RE/ #N`, `hot /RE/ #N`,
 * `region from /RE/ #N`, `loop /RE/ #N`, `branch /RE/ #N`), the #N counted
 * as the planner counts (plan_nth_stmt, plan_nth_call, the loops or arms
 * whose text matches), so that nobody counts by hand. */
#include <stdlib.h>
#include <string.h>

#include "cxx_nav.h"
#include "plan_walk.h"
#include "rule_regex.h"
#include "xalloc.h"

/* `^` and the escaped text of s up to its first '(' (included), or its first
 * 40 bytes (cut after a word): a regex matching a head that starts so. */
static char *head_regex(const char *s)
{
	size_t n = strcspn(s, "(");

	if (s[n] == '(' && n < 60) {
		n++;
	} else {
		n = strlen(s) < 40 ? strlen(s) : 40;
		while (n > 8 && s[n] && s[n] != ' ')
			n--;
	}
	return plan_re_quote("^", s, n, "");
}

static struct rule_regex *compile(const char *pattern, struct diag *diag)
{
	return rule_regex_compile(pattern, "", src_loc_make(NULL, 0, 0), diag);
}

/* The N under which statement s is the N-th whose head re matches, or 0. */
static unsigned nth_stmt(struct plan_walker *w, struct plan_fref f, int s, const struct rule_regex *re, bool calls)
{
	for (unsigned k = 1; k <= (unsigned)s + 1 && k <= 10000; k++)
		if (plan_nth_stmt(w, f, s, re, k, calls))
			return k;
	return 0;
}

static bool is_call_stmt(struct plan_walker *w, struct plan_fref f, int s)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct plan_finfo *fi = plan_finfo(w->pl, f);

	if (b->stmts[s].kind != CXX_STMT_EXPR && b->stmts[s].kind != CXX_STMT_RETURN)
		return false;
	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++)
		if (!plan_is_trace_call(&b->calls[fi->call_order[k]]))
			return true;
	return false;
}

static void print_stmt(FILE *out, struct plan_walker *w, struct plan_fref f, int s, int depth, struct diag *diag)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct src_file *file = w->pl->units[f.unit].file;
	const struct cxx_stmt *st = &b->stmts[s];
	char *head = xstrdup(plan_stmt_head(w, f, s));
	char *re_text;
	struct rule_regex *re;
	size_t shown = strlen(head) > 60 ? 57 : strlen(head);

	fprintf(out, "%6zu  %*s%.*s%s\n", src_file_line(file, st->range.start), 2 * depth, "", (int)shown, head,
		shown < strlen(head) ? "..." : "");
	if ((cxx_stmt_is_loop(st) && st->var) ||
	    (st->kind == CXX_STMT_ARM && st->arm != CXX_ARM_ELSE && st->arm != CXX_ARM_MACRO && st->text)) {
		/* loop /RE/ #N, branch /RE/ #N: counted over the loops (arms) whose text matches */
		bool loop = cxx_stmt_is_loop(st);
		char *rt = loop ? plan_re_quote("\\b", st->var, strlen(st->var), "\\b")
				: plan_re_quote("^", st->text, strlen(st->text), "$");
		struct rule_regex *rx = compile(rt, diag);
		unsigned k = 0;
		for (int t = 0; rx && t <= s; t++) {
			const struct cxx_stmt *o = &b->stmts[t];
			bool kind = loop ? cxx_stmt_is_loop(o)
					 : o->kind == CXX_STMT_ARM && o->arm != CXX_ARM_ELSE && o->arm != CXX_ARM_MACRO;
			if (kind && o->text && rule_regex_match(rx, o->text, strlen(o->text)))
				k++;
		}
		if (k)
			fprintf(out, "%8s%*s%s /%s/ #%u\n", "", 2 * depth, "", loop ? "loop" : "branch", rt, k);
		rule_regex_free(rx);
		free(rt);
	}
	if (fi->point_at[s] >= 0 || st->kind == CXX_STMT_ARM) {
		/* a point is not code, an arm is its chain's: neither is counted */
		free(head);
		return;
	}
	re_text = head_regex(head);
	re = compile(re_text, diag);
	if (re) {
		unsigned k;
		if (is_call_stmt(w, f, s) && (k = nth_stmt(w, f, s, re, true)) > 0)
			fprintf(out, "%8s%*swrap call /%s/ #%u\n", "", 2 * depth, "", re_text, k);
		if ((k = nth_stmt(w, f, s, re, false)) > 0)
			fprintf(out, "%8s%*sregion from /%s/ #%u (or to)\n", "", 2 * depth, "", re_text, k);
		rule_regex_free(re);
	}
	free(re_text);
	for (int c = fi->call_first[s]; c < fi->call_first[s + 1]; c++) {
		const struct cxx_call *call = &b->calls[fi->call_order[c]];
		struct rule_trace_rule r;
		char *name_re;
		if (!call->name || plan_is_trace_call(call) || !plan_makes_call(w->pl, f, call))
			continue;
		name_re = plan_re_quote("^", call->name, strlen(call->name), "$");
		memset(&r, 0, sizeof(r));
		r.match = compile(name_re, diag);
		for (unsigned k = 1; r.match && k <= 10000; k++) {
			r.nth = k;
			if (plan_nth_call(w, f, call, &r)) {
				fprintf(out, "%8s%*shot /%s/ #%u\n", "", 2 * depth, "", name_re, k);
				break;
			}
		}
		rule_regex_free((struct rule_regex *)r.match);
		free(name_re);
	}
	free(head);
}

static void print_block(FILE *out, struct plan_walker *w, struct plan_fref f, int parent, int depth,
			struct diag *diag)
{
	const struct cxx_body *b = plan_body_of(w, f);

	for (int s = cxx_first_child(b, parent); s >= 0; s = cxx_next_sibling(b, s)) {
		print_stmt(out, w, f, s, depth, diag);
		if (b->stmts[s].kind != CXX_STMT_LAMBDA)
			print_block(out, w, f, s, depth + 1, diag);
	}
}

/* Does the qualified name q name `func`: the same, or ending in "::func"? */
static bool names(const char *q, const char *func)
{
	size_t lq = strlen(q), lf = strlen(func);

	return strcmp(q, func) == 0 || (lq > lf + 2 && strcmp(q + lq - lf, func) == 0 && q[lq - lf - 1] == ':' &&
					 q[lq - lf - 2] == ':');
}

size_t plan_print_positions(FILE *out, struct plan *pl, const char *func, struct diag *diag)
{
	struct plan_walker w;
	size_t found = 0;

	memset(&w, 0, sizeof(w));
	w.pl = pl;
	w.p = pl->policy;
	w.diag = diag;
	for (size_t u = 0; u < pl->nunits; u++) {
		const struct cxx_outline *ol = pl->units[u].outline;
		for (size_t i = 0; i < ol->nfuncs; i++) {
			struct plan_fref f = { u, (int)i };
			if (!names(ol->funcs[i].qualified_name, func) || ol->funcs[i].body_range.end == 0)
				continue;
			fprintf(out, "%s%s  (%s:%zu)\n", found ? "\n" : "", ol->funcs[i].qualified_name,
				pl->units[u].path, src_file_line(pl->units[u].file, ol->funcs[i].name_range.start));
			print_block(out, &w, f, CXX_NONE, 0, diag);
			found++;
		}
	}
	free(w.text);
	free(w.subj);
	return found;
}
