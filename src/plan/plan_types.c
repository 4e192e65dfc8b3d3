/* Following a type to the classes it names, for the planner's call graph.
 * Real kernels reach their code through types that are not written where
 * the call is: `using MatmulKernel = Kernel<BlockMmad, ...>; MatmulKernel
 * kernel(params); kernel(params);`, `using LayoutB = typename
 * std::conditional<C, A, B>::type`, members declared as `BlockMmad
 * blockMmad;` where `using BlockMmad = BlockMmad_;` names a class template
 * parameter bound where the class is instantiated. A type text is resolved
 * through the aliases visible where it is written (the function's own, its
 * class's, then any), std::conditional (both choices), and a class template
 * parameter (the argument at its position in every instantiation written
 * in an alias); of a class template with several specialisations, those
 * whose first argument names the same class are kept. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "c_ident.h"
#include "plan_int.h"
#include "xalloc.h"

#define MAX_DEPTH 10
#define MAX_ARGS 16

/* [s, e) without surrounding blanks. */
static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

static bool starts_word(const char *s, const char *e, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(e - s) >= n && strncmp(s, w, n) == 0 && ((size_t)(e - s) == n || !c_ident_char(s[n]));
}

/* Drops `typename`, cv-qualifiers, class keys and trailing `*`/`&`. */
static void strip_decoration(const char **s, const char **e)
{
	static const char *const lead[] = { "typename", "const", "volatile", "struct", "class", "union", "__gm__", NULL };
	bool again = true;

	trim(s, e);
	while (again) {
		again = false;
		for (int i = 0; lead[i]; i++)
			if (starts_word(*s, *e, lead[i])) {
				*s += strlen(lead[i]);
				trim(s, e);
				again = true;
			}
		while (*e > *s && ((*e)[-1] == '*' || (*e)[-1] == '&')) {
			(*e)--;
			trim(s, e);
			again = true;
		}
		if (*e - *s > 6 && strncmp(*e - 5, "const", 5) == 0 && !c_ident_char((*e)[-6])) {
			*e -= 5;
			trim(s, e);
			again = true;
		}
	}
}

/* The top-level `::`-separated components of [s, e): starts and ends. */
static size_t components(const char *s, const char *e, const char **cs, const char **ce, size_t max)
{
	size_t n = 0;
	int angle = 0, paren = 0;
	const char *a = s;

	for (const char *p = s; p < e; p++) {
		if (*p == '<')
			angle++;
		else if (*p == '>')
			angle--;
		else if (*p == '(')
			paren++;
		else if (*p == ')')
			paren--;
		else if (angle == 0 && paren == 0 && p + 1 < e && p[0] == ':' && p[1] == ':') {
			if (n < max && p > a) {
				cs[n] = a;
				ce[n] = p;
				n++;
			}
			a = p + 2;
			p++;
		}
	}
	if (n < max && e > a) {
		cs[n] = a;
		ce[n] = e;
		n++;
	}
	for (size_t i = 0; i < n; i++)
		trim(&cs[i], &ce[i]);
	return n;
}

/* Splits "<a, b<c, d>, e>" (the text inside the brackets, [s, e)) at its
 * top-level commas. */
static size_t split_args(const char *s, const char *e, const char **as, const char **ae, size_t max)
{
	size_t n = 0;
	int depth = 0;
	const char *a = s;

	for (const char *p = s; p <= e; p++) {
		if (p == e || (depth == 0 && *p == ',')) {
			if (n < max) {
				as[n] = a;
				ae[n] = p;
				trim(&as[n], &ae[n]);
				n++;
			}
			a = p + 1;
			continue;
		}
		if (*p == '<' || *p == '(' || *p == '[' || *p == '{')
			depth++;
		else if (*p == '>' || *p == ')' || *p == ']' || *p == '}')
			depth--;
	}
	return n;
}

/* A component "Name<args>": the name in [*ns, *ne), the arguments inside the
 * brackets in [*as, *ae) (empty when there are none). */
static void component_parts(const char *s, const char *e, const char **ns, const char **ne, const char **as,
			    const char **ae)
{
	const char *lt = s;

	while (lt < e && *lt != '<')
		lt++;
	*ns = s;
	*ne = lt;
	trim(ns, ne);
	if (lt < e) {
		const char *gt = e;
		while (gt > lt && gt[-1] != '>')
			gt--;
		*as = lt + 1;
		*ae = gt > lt + 1 ? gt - 1 : lt + 1;
	} else {
		*as = *ae = e;
	}
}

/* ------------------------------------------------------------ the search */

struct tsearch {
	struct plan *pl;
	struct plan_cref *out;
	size_t n, max;
};

static void add_class(struct tsearch *ts, size_t unit, int type)
{
	for (size_t i = 0; i < ts->n; i++)
		if (ts->out[i].unit == unit && ts->out[i].type == type)
			return;
	if (ts->n < ts->max) {
		ts->out[ts->n].unit = unit;
		ts->out[ts->n].type = type;
		ts->n++;
	}
}

static const struct cxx_type *type_at(const struct plan *pl, size_t unit, int type)
{
	return &pl->units[unit].outline->types[type];
}

static void resolve(struct tsearch *ts, const struct plan_tctx *ctx, const char *s, const char *e, int depth);

/* The class scope a context sees first: the function's class, else the
 * declaration's own scope. */
static const char *ctx_scope(const struct plan *pl, const struct plan_tctx *ctx, char *buf, size_t size)
{
	if (ctx->func >= 0) {
		struct plan_fref f = { ctx->unit, ctx->func };
		return plan_func_scope(plan_func(pl, f), buf, size);
	}
	snprintf(buf, size, "%s", ctx->scope ? ctx->scope : "");
	return buf;
}

/* True when the last component of `scope` is `name` (template arguments aside). */
static bool scope_ends_with(const char *scope, const char *name, size_t nlen)
{
	size_t sl = strlen(scope);

	if (nlen == 0 || sl < nlen || strncmp(scope + sl - nlen, name, nlen) != 0)
		return false;
	return sl == nlen || (sl > nlen + 1 && scope[sl - nlen - 1] == ':');
}

/* The parameter names of a template parameter list; returns their number. */
static size_t param_names(const char *params, const char **ns, size_t *nl, size_t max)
{
	const char *as[MAX_ARGS], *ae[MAX_ARGS];
	size_t n = split_args(params, params + strlen(params), as, ae, MAX_ARGS), k = 0;

	for (size_t i = 0; i < n && k < max; i++) {
		const char *s = as[i], *e = ae[i], *eq = s;
		while (eq < e && *eq != '=')
			eq++;
		e = eq;
		trim(&s, &e);
		while (e > s && !c_ident_char(e[-1]))
			e--;
		{
			const char *b = e;
			while (b > s && c_ident_char(b[-1]))
				b--;
			ns[k] = b;
			nl[k] = (size_t)(e - b);
			k++;
		}
	}
	return k;
}

/* `name` is the template parameter at position *pos of the class that a
 * context's function belongs to: the class records holding that parameter. */
static bool template_param(struct tsearch *ts, const struct plan_tctx *ctx, const char *name, size_t nlen,
			   size_t *unit, int *type, size_t *pos)
{
	char scope[512];
	const char *cls, *last;
	const size_t *a;
	const int *b;
	size_t k;

	ctx_scope(ts->pl, ctx, scope, sizeof(scope));
	cls = scope;
	for (last = scope; *last; last++)
		if (last[0] == ':' && last[1] == ':')
			cls = last + 2;
	if (!*cls)
		return false;
	k = plan_map_get(ts->pl->index->types, cls, &a, &b);
	for (size_t i = 0; i < k; i++) {
		const struct cxx_type *t = type_at(ts->pl, a[i], b[i]);
		const char *ns[MAX_ARGS];
		size_t nl[MAX_ARGS], np;
		if (t->kind != CXX_TYPE_CLASS || !t->template_params)
			continue;
		np = param_names(t->template_params, ns, nl, MAX_ARGS);
		for (size_t j = 0; j < np; j++)
			if (nl[j] == nlen && strncmp(ns[j], name, nlen) == 0) {
				*unit = a[i];
				*type = b[i];
				*pos = j;
				return true;
			}
	}
	return false;
}

bool plan_type_known(struct plan *pl, const struct plan_tctx *ctx, const char *text, const char *name)
{
	struct tsearch ts = { pl, NULL, 0, 0 };
	const size_t *a;
	const int *b;
	size_t unit, pos;
	int type;

	if (!name[0])
		return false;
	if (plan_map_get(pl->index->types, name, &a, &b) > 0)
		return true;
	/* (a template parameter is written alone) */
	return strcmp(text, name) == 0 && template_param(&ts, ctx, name, strlen(name), &unit, &type, &pos);
}

/* Every alias whose target instantiates class `cls` gives the argument at
 * `pos`; each is resolved where that alias is written. */
static void bind_param(struct tsearch *ts, const char *cls, size_t pos, int depth)
{
	size_t cl = strlen(cls);
	const size_t *ua;
	const int *ub;
	size_t k = plan_map_get(ts->pl->index->instances, cls, &ua, &ub);

	for (size_t i = 0; i < k; i++) {
		const struct cxx_type *t = type_at(ts->pl, ua[i], ub[i]);
		const char *p;
		for (p = strstr(t->target, cls); p; p = strstr(p + 1, cls)) {
			const char *lt = p + cl, *gt, *as[MAX_ARGS], *ae[MAX_ARGS];
			int level = 0;
			size_t n;
			if ((p > t->target && c_ident_char(p[-1])) || *lt != '<')
				continue;
			for (gt = lt; *gt; gt++) {
				if (*gt == '<')
					level++;
				else if (*gt == '>' && --level == 0)
					break;
			}
			if (!*gt)
				continue;
			n = split_args(lt + 1, gt, as, ae, MAX_ARGS);
			if (pos < n) {
				struct plan_tctx c2 = { ua[i], t->func, t->range.start, t->scope };
				resolve(ts, &c2, as[pos], ae[pos], depth + 1);
			}
		}
	}
}

#define NAME_MAX_LEN 128

/* The class names the first argument of a template names: resolved, or as
 * written when it resolves to nothing known. */
static size_t first_arg_names(struct tsearch *up, const struct plan_tctx *ctx, const char *s, const char *e,
			      int depth, char (*names)[NAME_MAX_LEN], size_t max)
{
	struct plan_cref found[8];
	struct tsearch ts = { up->pl, found, 0, 8 };
	const char *cs[16], *ce[16], *ns, *ne, *as, *ae;
	size_t nc, k = 0;

	resolve(&ts, ctx, s, e, depth + 1);
	for (size_t i = 0; i < ts.n && k < max; i++)
		snprintf(names[k++], NAME_MAX_LEN, "%s", type_at(up->pl, found[i].unit, found[i].type)->name);
	if (k || max == 0)
		return k;
	strip_decoration(&s, &e);
	nc = components(s, e, cs, ce, 16);
	if (nc == 0)
		return 0;
	component_parts(cs[nc - 1], ce[nc - 1], &ns, &ne, &as, &ae);
	snprintf(names[0], NAME_MAX_LEN, "%.*s", (int)(ne - ns), ns);
	return 1;
}

/* Of several class records named alike, the specialisations whose first
 * template argument names one of the classes the written first argument
 * names; all of them when none does. */
static void add_classes(struct tsearch *ts, const struct plan_tctx *ctx, const size_t *us, const int *tys, size_t n,
			const char *as, const char *ae, int depth)
{
	const char *args[MAX_ARGS], *arge[MAX_ARGS];
	char names[8][NAME_MAX_LEN];
	size_t na = as < ae ? split_args(as, ae, args, arge, MAX_ARGS) : 0, nn;
	bool any = false;

	if (n > 1 && na > 0) {
		nn = first_arg_names(ts, ctx, args[0], arge[0], depth, names, 8);
		for (size_t i = 0; i < n; i++) {
			const struct cxx_type *t = type_at(ts->pl, us[i], tys[i]);
			const char *ta[MAX_ARGS], *te[MAX_ARGS], *s, *e, *cs[16], *ce[16], *xs, *xe, *ys, *ye;
			size_t nt, nc;
			if (!t->template_args)
				continue;
			nt = split_args(t->template_args, t->template_args + strlen(t->template_args), ta, te, MAX_ARGS);
			if (nt == 0)
				continue;
			s = ta[0];
			e = te[0];
			strip_decoration(&s, &e);
			nc = components(s, e, cs, ce, 16);
			if (nc == 0)
				continue;
			component_parts(cs[nc - 1], ce[nc - 1], &xs, &xe, &ys, &ye);
			for (size_t k = 0; k < nn; k++)
				if (strlen(names[k]) == (size_t)(xe - xs) && strncmp(names[k], xs, (size_t)(xe - xs)) == 0) {
					add_class(ts, us[i], tys[i]);
					any = true;
				}
		}
		if (any)
			return;
	}
	for (size_t i = 0; i < n; i++)
		add_class(ts, us[i], tys[i]);
}

/* The classes a written qualifier names, computed once per lookup. */
struct qualifier {
	bool done;
	char names[8][NAME_MAX_LEN];
	size_t n;
};

/* Does a declaration in `scope` answer the qualifier ending at [qs, qe) of a
 * name written from `s`? Its scope ends with the qualifier as written
 * (`Gemm::Kernel::X` declared in `Catlass::Gemm::Kernel`), or with a class
 * the qualifier names through an alias (`MatmulKernel::Params`). */
static bool qualifier_matches(struct tsearch *ts, const struct plan_tctx *ctx, const char *scope, const char *s,
			      const char *qs, const char *qe, struct qualifier *q, int depth)
{
	const char *ns, *ne, *as, *ae;

	component_parts(qs, qe, &ns, &ne, &as, &ae);
	if (scope_ends_with(scope, ns, (size_t)(ne - ns)))
		return true;
	if (!q->done) {
		struct plan_cref found[8];
		struct tsearch sub = { ts->pl, found, 0, 8 };
		q->done = true;
		resolve(&sub, ctx, s, qe, depth + 1);
		for (size_t i = 0; i < sub.n; i++)
			snprintf(q->names[q->n++], NAME_MAX_LEN, "%s", type_at(ts->pl, found[i].unit, found[i].type)->name);
	}
	for (size_t i = 0; i < q->n; i++)
		if (scope_ends_with(scope, q->names[i], strlen(q->names[i])))
			return true;
	return false;
}

static void resolve(struct tsearch *ts, const struct plan_tctx *ctx, const char *s, const char *e, int depth)
{
	const char *cs[16], *ce[16], *ns, *ne, *as, *ae;
	size_t nc, k, best = 0, nlen;
	const size_t *a;
	const int *b;
	char name[256], scope[512];
	size_t cu[64];
	int ct[64];
	size_t ncls = 0;
	struct qualifier qual = { 0 };

	if (depth > MAX_DEPTH || ts->n >= ts->max)
		return;
	strip_decoration(&s, &e);
	nc = components(s, e, cs, ce, 16);
	if (nc == 0)
		return;
	component_parts(cs[nc - 1], ce[nc - 1], &ns, &ne, &as, &ae);
	nlen = (size_t)(ne - ns);
	/* std::conditional<C, A, B>::type and std::conditional_t<C, A, B>: both */
	if (nc >= 2 && nlen == 4 && strncmp(ns, "type", 4) == 0) {
		const char *xs, *xe, *ys, *ye;
		component_parts(cs[nc - 2], ce[nc - 2], &xs, &xe, &ys, &ye);
		if (xe - xs == 11 && strncmp(xs, "conditional", 11) == 0) {
			const char *args[3], *arge[3];
			if (split_args(ys, ye, args, arge, 3) == 3) {
				resolve(ts, ctx, args[1], arge[1], depth + 1);
				resolve(ts, ctx, args[2], arge[2], depth + 1);
			}
			return;
		}
	}
	if (nlen == 13 && strncmp(ns, "conditional_t", 13) == 0) {
		const char *args[3], *arge[3];
		if (split_args(as, ae, args, arge, 3) == 3) {
			resolve(ts, ctx, args[1], arge[1], depth + 1);
			resolve(ts, ctx, args[2], arge[2], depth + 1);
		}
		return;
	}
	if (nlen == 0 || nlen >= sizeof(name))
		return;
	memcpy(name, ns, nlen);
	name[nlen] = '\0';
	ctx_scope(ts->pl, ctx, scope, sizeof(scope));
	/* the best-placed declarations: the function's own (before the use), then
	 * the nearest enclosing scope (with the qualifier as written), then any
	 * whose scope ends with the qualifier, then any of the name */
	{
		struct plan_key key = { .n = 0 };
		plan_ks(plan_kn(plan_ks(plan_kn(plan_ks(&key, "\001"), (long long)ctx->unit), ":"), ctx->func), ":");
		k = ctx->func >= 0 ? plan_map_get(ts->pl->index->types_q, plan_ks(&key, name)->s, &a, &b) : 0;
		for (size_t i = 0; i < k && ncls < 64; i++)
			if (type_at(ts->pl, a[i], b[i])->range.start < ctx->at) {
				cu[ncls] = a[i];
				ct[ncls] = b[i];
				ncls++;
			}
	}
	if (ncls == 0) {
		char qual_text[512] = "", key[1024];
		size_t ql = 0, sl = strlen(scope);
		/* the written qualifier without template arguments: "Gemm::Kernel" */
		for (size_t c = 0; c + 1 < nc && ql + 2 < sizeof(qual_text); c++) {
			const char *xs, *xe, *ys, *ye;
			component_parts(cs[c], ce[c], &xs, &xe, &ys, &ye);
			ql += (size_t)snprintf(qual_text + ql, sizeof(qual_text) - ql, "%s%.*s", c ? "::" : "", (int)(xe - xs), xs);
		}
		char tail[800];
		plan_key(tail, sizeof(tail), qual_text, ql, ql ? "::" : "", name);
		for (;;) {
			plan_key(key, sizeof(key), scope, sl, sl ? "::" : "", tail);
			k = plan_map_get(ts->pl->index->types_q, key, &a, &b);
			for (size_t i = 0; i < k && ncls < 64; i++) {
				cu[ncls] = a[i];
				ct[ncls] = b[i];
				ncls++;
			}
			if (ncls || sl == 0)
				break;
			/* the enclosing scope */
			while (sl > 0 && !(sl >= 2 && scope[sl - 1] == ':' && scope[sl - 2] == ':'))
				sl--;
			sl = sl >= 2 ? sl - 2 : 0;
		}
	}
	if (ncls == 0) {
		/* nothing encloses the use: any declaration of the name (namespaces
		 * opened by `using namespace` are not tracked) whose scope answers a
		 * written qualifier */
		k = plan_map_get(ts->pl->index->types, name, &a, &b);
		for (size_t i = 0; i < k && ncls < 64; i++) {
			const struct cxx_type *t = type_at(ts->pl, a[i], b[i]);
			if (t->func != CXX_NONE)
				continue;
			if (nc >= 2 && !qualifier_matches(ts, ctx, t->scope, s, cs[nc - 2], ce[nc - 2], &qual, depth))
				continue;
			cu[ncls] = a[i];
			ct[ncls] = b[i];
			ncls++;
		}
	}
	(void)best;
	if (ncls > 0) {
		size_t cls_u[64];
		int cls_t[64];
		size_t nclass = 0;
		for (size_t i = 0; i < ncls; i++) {
			const struct cxx_type *t = type_at(ts->pl, cu[i], ct[i]);
			if (t->kind == CXX_TYPE_CLASS) {
				cls_u[nclass] = cu[i];
				cls_t[nclass] = ct[i];
				nclass++;
			} else if (t->target) {
				struct plan_tctx c2 = { cu[i], t->func, t->range.start, t->scope };
				resolve(ts, &c2, t->target, t->target + strlen(t->target), depth + 1);
			}
		}
		if (nclass)
			add_classes(ts, ctx, cls_u, cls_t, nclass, as, ae, depth);
		return;
	}
	/* a template parameter of the class: what its instantiations pass */
	{
		size_t unit, pos;
		int type;
		if (template_param(ts, ctx, name, nlen, &unit, &type, &pos))
			bind_param(ts, type_at(ts->pl, unit, type)->name, pos, depth);
	}
}

/* The answer depends on the text, the unit, the function (or the scope
 * outside one), the room given and, through a function's local aliases, on
 * how many of them are declared before ctx->at: all of that is the key of
 * the answers kept. */
size_t plan_type_classes(struct plan *pl, const struct plan_tctx *ctx, const char *text, struct plan_cref *out,
			 size_t max)
{
	struct plan_index *ix = pl->index;
	struct tsearch ts = { pl, out, 0, max };
	struct plan_key key = { .n = 0 };
	const size_t *a;
	const int *b;
	size_t locals = 0;

	if (!text || max == 0)
		return 0;
	if (max > PLAN_RESOLVE_MAX) {
		resolve(&ts, ctx, text, text + strlen(text), 0);
		return ts.n;
	}
	plan_kn(&key, (long long)ctx->unit);
	if (ctx->func >= 0) {
		size_t k;
		plan_kn(plan_ks(&key, ":"), ctx->func);
		k = plan_map_get(ix->locals, key.s, &a, &b);
		for (size_t i = 0; i < k; i++)
			if (type_at(pl, a[i], b[i])->range.start < ctx->at)
				locals++;
		plan_kn(plan_ks(&key, ":"), (long long)locals);
	} else {
		plan_ks(plan_ks(&key, "::"), ctx->scope ? ctx->scope : "");
	}
	plan_ks(plan_ks(plan_kn(plan_ks(&key, "\003"), (long long)max), "\003"), text);
	if (plan_map_get(ix->type_memo, key.s, &a, &b) > 0) {
		const struct plan_member *m = &ix->member_v[a[0]];
		memcpy(out, m->cls, m->n * sizeof(*out));
		return m->n;
	}
	resolve(&ts, ctx, text, text + strlen(text), 0);
	XGROW(ix->member_v, ix->member_cap, ix->nmember + 1);
	ix->member_v[ix->nmember].n = ts.n;
	memcpy(ix->member_v[ix->nmember].cls, out, ts.n * sizeof(*out));
	ix->member_v[ix->nmember].name[0] = '\0';
	plan_map_add(ix->type_memo, key.s, ix->nmember++, 0);
	return ts.n;
}

/* ------------------------------------------------------------ members */

/* Does function r belong to class record c? Functions defined in the class
 * body must lie inside it; out-of-class definitions belong to every record
 * of the name. */
static bool member_of(const struct plan *pl, struct plan_fref r, struct plan_cref c)
{
	const struct cxx_func *fn = plan_func(pl, r);
	const struct cxx_type *t = type_at(pl, c.unit, c.type);

	if (!fn->in_class)
		return true;
	return r.unit == c.unit && fn->range.start >= t->range.start && fn->range.end <= t->range.end;
}

#define MAX_BASES 16

/* The classes the base clause of class record c names (`public Base<T>,
 * Other`: each resolved where the class is written), up to max. */
static size_t base_classes(struct plan *pl, struct plan_cref c, struct plan_cref *out, size_t max)
{
	static const char *const access[] = { "public", "protected", "private", "virtual" };
	const struct cxx_type *t = type_at(pl, c.unit, c.type);
	struct plan_tctx ctx = { c.unit, CXX_NONE, t->range.start, t->scope };
	const char *as[MAX_ARGS], *ae[MAX_ARGS];
	size_t nb, n = 0;

	if (!t->target)
		return 0;
	nb = split_args(t->target, t->target + strlen(t->target), as, ae, MAX_ARGS);
	for (size_t i = 0; i < nb && n < max; i++) {
		const char *s = as[i], *e = ae[i];
		size_t room = max - n < 8 ? max - n : 8;
		char *txt;
		for (int w = 0; w < 4; w++)
			if (starts_word(s, e, access[w]))
				s += strlen(access[w]);
		trim(&s, &e);
		txt = xstrndup(s, (size_t)(e - s));
		n += plan_type_classes(pl, &ctx, txt, out + n, room);
		free(txt);
	}
	return n;
}

static size_t members(struct plan *pl, const struct plan_cref *cls, size_t ncls, const char *method,
		      const char *targs, struct plan_fref *out, size_t max, size_t n, int depth)
{
	char key[1024];

	for (size_t c = 0; c < ncls && n < max; c++) {
		const struct cxx_type *t = type_at(pl, cls[c].unit, cls[c].type);
		const size_t *a;
		const int *b;
		size_t k, before = n;
		bool exact = false;
		plan_key(key, sizeof(key), t->name, strlen(t->name), "::", method);
		k = plan_map_get(pl->index->by_member, key, &a, &b);
		if (targs)
			for (size_t i = 0; i < k; i++) {
				struct plan_fref r = { a[i], b[i] };
				const char *ft = plan_func(pl, r)->template_args;
				if (ft && plan_targs_equal(ft, targs) && member_of(pl, r, cls[c]))
					exact = true;
			}
		for (size_t i = 0; i < k && n < max; i++) {
			struct plan_fref r = { a[i], b[i] };
			const char *ft = plan_func(pl, r)->template_args;
			bool dup = false;
			if (!member_of(pl, r, cls[c]) || (exact && !(ft && plan_targs_equal(ft, targs))))
				continue;
			for (size_t j = 0; j < n && !dup; j++)
				dup = out[j].unit == r.unit && out[j].func == r.func;
			if (!dup)
				out[n++] = r;
		}
		/* not defined in the class: its base classes */
		if (n == before && t->target && depth < MAX_DEPTH) {
			struct plan_cref bases[MAX_BASES];
			size_t nb = base_classes(pl, cls[c], bases, MAX_BASES);
			n = members(pl, bases, nb, method, targs, out, max, n, depth + 1);
		}
	}
	return n;
}

size_t plan_class_members(struct plan *pl, const struct plan_cref *cls, size_t ncls, const char *method,
			  const char *targs, struct plan_fref *out, size_t max)
{
	return members(pl, cls, ncls, method, targs, out, max, 0, 0);
}

/* ------------------------------------------------------------ constructors */

/* Can constructor fn be given `nargs` arguments? Parameters with a default
 * may be left out; a pack takes any number. */
static bool takes_args(const struct cxx_func *fn, size_t nargs)
{
	size_t required = 0;
	bool pack = false;

	for (size_t i = 0; i < fn->nparams; i++) {
		if (strstr(fn->params[i].type, "..."))
			pack = true;
		else if (!fn->params[i].default_arg)
			required++;
	}
	return nargs >= required && (pack || nargs <= fn->nparams);
}

static size_t constructors(struct plan *pl, const struct plan_cref *cls, size_t ncls, size_t nargs,
			   struct plan_fref *out, size_t max, size_t n, int depth)
{
	char key[1024];

	for (size_t c = 0; c < ncls && n < max; c++) {
		const struct cxx_type *t = type_at(pl, cls[c].unit, cls[c].type);
		const size_t *a;
		const int *b;
		size_t k, written = 0;
		plan_key(key, sizeof(key), t->name, strlen(t->name), "::", t->name);
		k = plan_map_get(pl->index->by_member, key, &a, &b);
		for (size_t i = 0; i < k; i++) {
			struct plan_fref r = { a[i], b[i] };
			bool dup = false;
			if (!member_of(pl, r, cls[c]))
				continue;
			written++;
			if (!takes_args(plan_func(pl, r), nargs))
				continue;
			for (size_t j = 0; j < n && !dup; j++)
				dup = out[j].unit == r.unit && out[j].func == r.func;
			if (!dup && n < max)
				out[n++] = r;
		}
		/* no constructor written: default construction runs the bases' */
		if (written == 0 && nargs == 0 && t->target && depth < MAX_DEPTH) {
			struct plan_cref bases[MAX_BASES];
			size_t nb = base_classes(pl, cls[c], bases, MAX_BASES);
			n = constructors(pl, bases, nb, 0, out, max, n, depth + 1);
		}
	}
	return n;
}

size_t plan_class_constructors(struct plan *pl, const struct plan_cref *cls, size_t ncls, size_t nargs,
			       struct plan_fref *out, size_t max)
{
	return constructors(pl, cls, ncls, nargs, out, max, 0, 0);
}
