/* The planner's static call graph: an index of every function by name and
 * by "Class::name", the resolution of a call site to the functions it may
 * reach (methods of the caller's class, free functions, methods and
 * operator() of objects whose type is found in a declaration: a parameter,
 * a local, a class member), and per-function facts (calls by statement,
 * existing points, core-type restrictions of statements). */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "c_ident.h"
#include "index_table.h"
#include "plan_int.h"
#include "xalloc.h"

/* ------------------------------------------------------------ names */

/* The last component of "ns::Cls" ("" stays ""), without template arguments. */
static const char *last_component(const char *scope, char *buf, size_t size)
{
	const char *s = scope, *last = scope;
	int angle = 0;
	size_t n;

	for (; *s; s++) {
		if (*s == '<')
			angle++;
		else if (*s == '>')
			angle--;
		else if (angle == 0 && s[0] == ':' && s[1] == ':')
			last = s + 2, s++;
	}
	n = strcspn(last, "<");
	while (n > 0 && last[n - 1] == ' ')
		n--;
	if (n >= size)
		n = size - 1;
	memcpy(buf, last, n);
	buf[n] = '\0';
	return buf;
}

static void member_key(char *buf, size_t size, const char *cls, const char *name)
{
	plan_key(buf, size, cls, strlen(cls), "::", name);
}

static const char *func_class(const struct cxx_func *fn, char *buf, size_t size)
{
	char scope[512];

	return last_component(plan_func_scope(fn, scope, sizeof(scope)), buf, size);
}

/* A type under its name, its qualified name (or, for a function's local
 * alias, that function), and each class an alias instantiates. */
static void index_type(struct plan_index *ix, size_t u, const struct cxx_outline *ol, int ti)
{
	const struct cxx_type *t = &ol->types[ti];
	char key[1024];

	plan_map_add(ix->types, t->name, u, ti);
	if (t->func != CXX_NONE) {
		struct plan_key lk = { .n = 0 };
		plan_map_add(ix->locals, plan_kn(plan_ks(plan_kn(&lk, (long long)u), ":"), t->func)->s, u, ti);
		snprintf(key, sizeof(key), "\001%zu:%d:%s", u, t->func, t->name);
	} else
		plan_key(key, sizeof(key), t->scope, strlen(t->scope), t->scope[0] ? "::" : "", t->name);
	plan_map_add(ix->types_q, key, u, ti);
	if (t->kind == CXX_TYPE_ALIAS && t->target)
		for (const char *p = t->target; *p; p++) {
			const char *w = p;
			if (!(isalpha((unsigned char)*p) || *p == '_') || (p > t->target && c_ident_char(p[-1])))
				continue;
			while (c_ident_char(*p))
				p++;
			if (*p == '<' && (size_t)(p - w) < sizeof(key)) {
				memcpy(key, w, (size_t)(p - w));
				key[p - w] = '\0';
				plan_map_add(ix->instances, key, u, ti);
			}
			if (!*p)
				break;
		}
}

void plan_index_build(struct plan *pl)
{
	struct plan_index *ix = xcalloc(1, sizeof(*ix));
	char cls[512], key[1024];

	ix->by_name = plan_map_new();
	ix->by_member = plan_map_new();
	ix->by_class = plan_map_new();
	ix->macros = plan_map_new();
	ix->types = plan_map_new();
	ix->types_q = plan_map_new();
	ix->members = plan_map_new();
	ix->locals = plan_map_new();
	ix->type_memo = plan_map_new();
	ix->udecls = xcalloc(pl->nunits + 1, sizeof(*ix->udecls));
	ix->instances = plan_map_new();
	ix->unit_base = xcalloc(pl->nunits + 1, sizeof(size_t));
	for (size_t u = 0; u < pl->nunits; u++) {
		const struct cxx_outline *ol = pl->units[u].outline;
		ix->unit_base[u] = ix->nfuncs;
		ix->nfuncs += ol->nfuncs;
		for (size_t f = 0; f < ol->nfuncs; f++) {
			const struct cxx_func *fn = &ol->funcs[f];
			if (fn->def != CXX_DEF_BODY)
				continue;
			plan_map_add(ix->by_name, fn->name, u, (int)f);
			func_class(fn, cls, sizeof(cls));
			if (cls[0]) {
				const size_t *a;
				const int *b;
				size_t n = plan_map_get(ix->by_class, cls, &a, &b);
				member_key(key, sizeof(key), cls, fn->name);
				plan_map_add(ix->by_member, key, u, (int)f);
				if (n == 0 || a[n - 1] != u)
					plan_map_add(ix->by_class, cls, u, 0);
			}
		}
		for (size_t m = 0; m < ol->nmacros; m++)
			if (ol->macros[m].has_code && (ol->macros[m].params || ol->macros[m].body.ncalls > 0))
				plan_map_add(ix->macros, ol->macros[m].name, u, (int)m);
		for (size_t t = 0; t < ol->ntypes; t++)
			index_type(ix, u, ol, (int)t);
	}
	ix->unit_base[pl->nunits] = ix->nfuncs;
	ix->info = xcalloc(ix->nfuncs + 1, sizeof(*ix->info));
	pl->index = ix;
}

void plan_index_free(struct plan_index *ix, size_t nunits)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->nfuncs; i++) {
		free(ix->info[i].call_first);
		free(ix->info[i].call_order);
		free(ix->info[i].point_at);
		free(ix->info[i].claimed);
		free(ix->info[i].restr);
		free(ix->info[i].res_first);
		free(ix->info[i].callers);
		free(ix->info[i].calls_memo);
		free(ix->info[i].other_phases);
	}
	free(ix->info);
	free(ix->res_pool);
	free(ix->unit_base);
	plan_map_free(ix->by_name);
	plan_map_free(ix->by_member);
	plan_map_free(ix->by_class);
	plan_map_free(ix->macros);
	plan_map_free(ix->types);
	plan_map_free(ix->types_q);
	plan_map_free(ix->members);
	plan_map_free(ix->locals);
	plan_map_free(ix->type_memo);
	for (size_t u = 0; u < nunits; u++) {
		free(ix->udecls[u].v);
		free(ix->udecls[u].head);
	}
	free(ix->udecls);
	free(ix->member_v);
	plan_map_free(ix->instances);
	free(ix);
}

bool plan_find_macro(const struct plan *pl, const char *name, size_t *unit, int *macro)
{
	const size_t *a;
	const int *b;

	if (plan_map_get(pl->index->macros, name, &a, &b) == 0)
		return false;
	*unit = a[0];
	*macro = b[0];
	return true;
}

bool plan_is_trace_call(const struct cxx_call *c)
{
	const char *n = c->name;

	/* (the first byte first: this is asked of every call, every rule) */
	return n && ((n[0] == 'M' && strncmp(n, "MoeTracing", 10) == 0) || (n[0] == 'T' && strcmp(n, "TRACE_POINT") == 0));
}

bool plan_makes_call(struct plan *pl, struct plan_fref f, const struct cxx_call *c)
{
	struct plan_fref t[PLAN_RESOLVE_MAX];
	bool quiet;

	if (plan_is_trace_call(c))
		return false;
	return c->constructs == CXX_CONSTRUCT_CALL || plan_resolve_call(pl, f, c, t, PLAN_RESOLVE_MAX, &quiet) > 0;
}

static bool is_word_at(const char *text, const char *p, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(p, word, n) != 0)
		return false;
	if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		return false;
	return !(isalnum((unsigned char)p[n]) || p[n] == '_');
}

/* True when `word` occurs in [s, e) as a whole word. */
static bool has_word_n(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = s; p + n <= e; p++)
		if (strncmp(p, word, n) == 0 && (p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
		    (p + n == e || !(isalnum((unsigned char)p[n]) || p[n] == '_')))
			return true;
	return false;
}

static bool has_word(const char *text, const char *word)
{
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
		if (is_word_at(text, p, word))
			return true;
	return false;
}

bool plan_func_is_void(const struct cxx_func *f)
{
	const char *p = f->prefix;
	size_t n;

	if (!p)
		return false;
	n = strlen(p);
	while (n > 0 && p[n - 1] == ' ')
		n--;
	return n >= 4 && strncmp(p + n - 4, "void", 4) == 0 && (n == 4 || !isalnum((unsigned char)p[n - 5]));
}

unsigned plan_cond_core(const char *text)
{
	unsigned core = PLAN_CORE_MIX;
	bool neg = false;

	if (!text || strstr(text, "||"))
		return PLAN_CORE_MIX;
	if (has_word(text, "ASCEND_IS_AIC"))
		core = PLAN_CORE_AIC;
	else if (has_word(text, "ASCEND_IS_AIV"))
		core = PLAN_CORE_AIV;
	else if (has_word(text, "ASCEND_IS_NOT_AIC"))
		core = PLAN_CORE_AIV;
	else if (has_word(text, "ASCEND_IS_NOT_AIV"))
		core = PLAN_CORE_AIC;
	else if ((strstr(text, "==") || strstr(text, "!=")) &&
		 (strstr(text, "oreType") || strstr(text, "CORE_TYPE") || strstr(text, "coreType"))) {
		if (has_word(text, "AIC"))
			core = PLAN_CORE_AIC;
		else if (has_word(text, "AIV"))
			core = PLAN_CORE_AIV;
		if (strstr(text, "!=") && core != PLAN_CORE_MIX)
			core ^= PLAN_CORE_MIX;
		return core;
	}
	if (core != PLAN_CORE_MIX) {
		const char *p = text;
		while (*p == ' ' || *p == '(')
			p++;
		neg = *p == '!';
		if (neg)
			core ^= PLAN_CORE_MIX;
	}
	return core;
}

static unsigned func_own_core(const struct cxx_func *f)
{
	if (f->template_args) {
		if (has_word(f->template_args, "AIC"))
			return PLAN_CORE_AIC;
		if (has_word(f->template_args, "AIV"))
			return PLAN_CORE_AIV;
	}
	return PLAN_CORE_MIX;
}

/* ------------------------------------------------------------ per-function facts */

struct plan_finfo *plan_finfo(struct plan *pl, struct plan_fref f)
{
	struct plan_finfo *fi = &pl->index->info[plan_fid(pl, f)];
	const struct cxx_func *fn;
	const struct cxx_body *b;
	size_t n;

	if (fi->ready)
		return fi;
	fi->ready = true;
	fn = plan_func(pl, f);
	b = &fn->body;
	n = b->nstmts;
	fi->own = func_own_core(fn);
	fi->call_first = xcalloc(n + 2, sizeof(int));
	fi->call_order = xcalloc(b->ncalls + 1, sizeof(int));
	for (size_t c = 0; c < b->ncalls; c++) {
		int s = b->calls[c].stmt;
		if (s >= 0 && (size_t)s < n)
			fi->call_first[s + 1]++;
	}
	for (size_t s = 0; s < n; s++)
		fi->call_first[s + 1] += fi->call_first[s];
	{
		int *fill = xcalloc(n + 1, sizeof(int));
		for (size_t c = 0; c < b->ncalls; c++) {
			int s = b->calls[c].stmt;
			if (s >= 0 && (size_t)s < n)
				fi->call_order[fi->call_first[s] + fill[s]++] = (int)c;
		}
		free(fill);
	}
	fi->point_at = xmalloc((n + 1) * sizeof(int));
	for (size_t s = 0; s < n; s++)
		fi->point_at[s] = -1;
	for (size_t k = 0; k < b->npoints; k++) {
		int s = b->points[k].stmt;
		if (s < 0 || (size_t)s >= n || b->stmts[s].kind != CXX_STMT_EXPR || fi->point_at[s] >= 0)
			continue;
		/* the statement is the point alone: MoeTracing(...) followed by ';' */
		if (b->points[k].range.start == b->stmts[s].range.start)
			fi->point_at[s] = (int)k;
	}
	fi->claimed = xcalloc(b->npoints + 1, sizeof(int));
	fi->restr = xmalloc((n + 1) * sizeof(unsigned));
	{
		unsigned seen = 0; /* core bits covered by earlier arms of the current if chain */
		int chain = -1;
		for (size_t s = 0; s < n; s++) {
			const struct cxx_stmt *st = &b->stmts[s];
			unsigned up = st->parent >= 0 ? fi->restr[st->parent] : fi->own;
			unsigned own = PLAN_CORE_MIX;
			if (st->kind == CXX_STMT_ARM) {
				if (chain != st->parent) {
					chain = st->parent;
					seen = 0;
				}
				own = st->arm == CXX_ARM_ELSE ? PLAN_CORE_MIX : plan_cond_core(st->text);
				if (seen)
					own &= ~seen & PLAN_CORE_MIX;
				if (own != PLAN_CORE_MIX)
					seen |= own;
			}
			fi->restr[s] = up & own;
		}
	}
	return fi;
}

/* ------------------------------------------------------------ declarations */

static const char *const not_types[] = {
	"return", "else", "case", "new", "delete", "throw", "goto", "sizeof", "typedef", "using",
	"operator", "co_return", "co_await", "do", "if", "while", "for", "switch", "default", NULL,
};

/* Whether [ts, te) reads as a type: identifiers, ::, balanced <...>, *, &. */
static bool type_like(const char *ts, const char *te)
{
	int angle = 0;
	bool word = false;

	for (const char *p = ts; p < te; p++) {
		if (*p == '<')
			angle++;
		else if (*p == '>')
			angle--;
		else if (c_ident_char(*p))
			word = true;
		if (angle < 0)
			return false;
	}
	if (angle != 0 || !word)
		return false;
	for (int i = 0; not_types[i]; i++) {
		size_t n = strlen(not_types[i]);
		if ((size_t)(te - ts) >= n && strncmp(ts, not_types[i], n) == 0 &&
		    ((size_t)(te - ts) == n || !c_ident_char(ts[n])))
			return false;
	}
	return true;
}

/* The class name of a type text: "const AscendC::GlobalTensor<float> &" ->
 * "GlobalTensor". Empty when none (auto, a builtin). */
static void type_class(const char *ts, const char *te, char *out, size_t size)
{
	static const char *const skip[] = { "const", "volatile", "static", "mutable", "constexpr", "typename",
					    "struct", "class", "inline", "__gm__", "__aicore__", "auto",
					    "unsigned", "signed", "int", "long", "short", "char", "float",
					    "double", "bool", "void", NULL };
	const char *best = NULL;
	size_t bestn = 0;
	int angle = 0;

	out[0] = '\0';
	for (const char *p = ts; p < te;) {
		if (*p == '<') {
			angle++;
			p++;
		} else if (*p == '>') {
			angle--;
			p++;
		} else if (angle == 0 && c_ident_char(*p) && !isdigit((unsigned char)*p)) {
			const char *w = p;
			bool kw = false;
			while (p < te && c_ident_char(*p))
				p++;
			for (int i = 0; skip[i]; i++)
				if ((size_t)(p - w) == strlen(skip[i]) && strncmp(w, skip[i], (size_t)(p - w)) == 0)
					kw = true;
			if (!kw)
				best = w, bestn = (size_t)(p - w);
		} else {
			p++;
		}
	}
	if (best && bestn < size) {
		memcpy(out, best, bestn);
		out[bestn] = '\0';
	}
}

/* A declaration found in the text: the type as written and, for `T x = v`,
 * `T x(v)` or `T x{v}`, where v starts. */
struct decl_found {
	const char *ts, *te;
	const char *init;
	bool lambda;
};

/* Is the occurrence of a name at q (n bytes, whole identifier) in data[from,
 * to) declared there? `auto` declarations count when they have an
 * initializer; `auto name = [` is a lambda. */
static bool decl_at(const char *data, size_t from, size_t to, const char *q, size_t n, struct decl_found *out)
{
	const char *a, *te, *ts;
	int angle = 0;
	char buf[256];
	struct decl_found d;
	bool is_auto;

	if (q > data + 1 && (q[-1] == '.' || (q[-1] == '>' && q[-2] == '-') || (q[-1] == ':' && q[-2] == ':')))
		return false;
	a = q + n;
	while ((size_t)(a - data) < to && (*a == ' ' || *a == '\t'))
		a++;
	if (!strchr(";={([,)", *a) || *a == '\0')
		return false;
	te = q;
	while (te > data && (te[-1] == ' ' || te[-1] == '\t' || te[-1] == '\n' || te[-1] == '\r'))
		te--;
	if (te == data || !(c_ident_char(te[-1]) || te[-1] == '>' || te[-1] == '*' || te[-1] == '&'))
		return false;
	ts = te;
	while (ts > data + from) {
		char c = ts[-1];
		if (c == '>')
			angle++;
		else if (c == '<')
			angle--;
		else if (angle == 0 && !(c_ident_char(c) || c == ':' || c == '*' || c == '&' || c == ' ' || c == '\t'))
			break;
		else if (angle > 0 && strchr(";{}", c))
			break;
		ts--;
	}
	while (ts < te && (*ts == ' ' || *ts == '\t' || *ts == ':'))
		ts++;
	if (ts >= te || !type_like(ts, te))
		return false;
	d = (struct decl_found){ ts, te, NULL, false };
	type_class(ts, te, buf, sizeof(buf));
	is_auto = !buf[0] && has_word_n(ts, te, "auto");
	if (*a == '=' || *a == '(' || *a == '{') {
		const char *v = a + 1;
		while (*v == ' ' || *v == '\t' || *v == '\n')
			v++;
		d.init = v;
		if (*a == '=' && *v == '[')
			d.lambda = true;
	}
	if (!buf[0] && !d.lambda && !(is_auto && d.init && *a == '='))
		return false;
	*out = d;
	return true;
}

static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Every identifier of unit u that stands where a declared name can (after
 * a name, `>`, `*` or `&`, before one of `;={([,)`), in a hash table whose
 * chains run in file order: found in one pass over the file, the first time
 * the unit is asked. */
/* The bytes of names (ident_char as a table, filled on first use). */
static bool word_bytes[256];

static void fill_word_bytes(void)
{
	for (int c = 0; c < 256; c++)
		word_bytes[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A byte that may follow a declared name. */
static inline bool decl_follow(char c)
{
	return c == ';' || c == '=' || c == '{' || c == '(' || c == '[' || c == ',' || c == ')';
}

static const struct plan_unit_decls *unit_decls(struct plan *pl, size_t u)
{
	struct plan_unit_decls *ud = &pl->index->udecls[u];
	const struct src_file *file = pl->units[u].file;
	const char *data = file->data, *end = data + file->len;
	size_t cap = 0;

	if (ud->built)
		return ud;
	ud->built = true;
	if (!word_bytes['_'])
		fill_word_bytes();
	for (const char *p = data; p < end;) {
		const char *s, *e, *a, *b;
		while (p < end && !word_bytes[(unsigned char)*p])
			p++;
		s = p;
		while (p < end && word_bytes[(unsigned char)*p])
			p++;
		e = p;
		if (s == e || (*s >= '0' && *s <= '9'))
			continue;
		for (a = e; a < end && (*a == ' ' || *a == '\t'); a++)
			;
		if (a == end || !decl_follow(*a))
			continue;
		for (b = s; b > data && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n' || b[-1] == '\r'); b--)
			;
		if (b == data || !(word_bytes[(unsigned char)b[-1]] || b[-1] == '>' || b[-1] == '*' || b[-1] == '&'))
			continue;
		XGROW(ud->v, cap, ud->n + 1);
		ud->v[ud->n].hash = name_hash(s, (size_t)(e - s));
		ud->v[ud->n].pos = (uint32_t)(s - data);
		ud->n++;
	}
	for (ud->mask = 1; ud->mask < 2 * ud->n; ud->mask <<= 1)
		;
	ud->head = xcalloc(ud->mask--, sizeof(*ud->head));
	for (size_t i = ud->n; i-- > 0;) {
		uint32_t *h = &ud->head[ud->v[i].hash & ud->mask];
		ud->v[i].next = *h;
		*h = (uint32_t)i + 1;
	}
	return ud;
}

/* Looks in unit u's data[from, to) for a declaration of `name`; the last one
 * (or the first, when `last` is false) goes to *out. */
static bool find_decl(struct plan *pl, size_t u, size_t from, size_t to, const char *name, bool last,
		      struct decl_found *out)
{
	const struct plan_unit_decls *ud = unit_decls(pl, u);
	const char *data = pl->units[u].file->data;
	size_t n = strlen(name);
	uint32_t h = name_hash(name, n);
	struct decl_found d;
	bool found = false;

	if (n == 0 || to <= from || ud->n == 0)
		return false;
	for (uint32_t i = ud->head[h & ud->mask]; i; i = ud->v[i - 1].next) {
		const struct plan_decl_pos *e = &ud->v[i - 1];
		const char *q = data + e->pos;
		if (e->pos + n > to)
			break;
		if (e->hash != h || e->pos < from || memcmp(q, name, n) != 0 || c_ident_char(q[n]) ||
		    !decl_at(data, from, to, q, n, &d))
			continue;
		*out = d;
		found = true;
		if (!last)
			break;
	}
	return found;
}

static size_t var_classes(struct plan *pl, struct plan_fref f, const char *var, uint32_t at, struct plan_cref *out,
			  size_t max, char *cls, size_t size, bool *lambda, int depth);
static size_t member_classes(struct plan *pl, struct plan_fref f, const char *var, const char *scope,
			     struct plan_cref *out, size_t max, char *cls, size_t size, int depth);
static size_t member_var_classes(struct plan *pl, struct plan_fref f, const char *var, struct plan_cref *out,
				 size_t max, char *cls, size_t size, int depth);

/* The classes of a declaration's type in context `ctx`; for `auto`, of its
 * initializer (`&c`, `c`, `T(...)`, `T{...}`, `new T(...)`, `static_cast<T>`). */
static size_t decl_classes(struct plan *pl, struct plan_fref f, const struct plan_tctx *ctx, const struct decl_found *d,
			   struct plan_cref *out, size_t max, char *cls, size_t size, int depth)
{
	char *text;
	size_t n;

	cls[0] = '\0';
	type_class(d->ts, d->te, cls, size);
	if (!cls[0] && d->init) {
		const char *v = d->init, *w;
		static const char *const casts[] = { "static_cast<", "reinterpret_cast<", "const_cast<", NULL };
		while (*v == '&' || *v == '*' || *v == '(' || *v == ' ')
			v++;
		if (strncmp(v, "new ", 4) == 0)
			v += 4;
		for (int i = 0; casts[i]; i++)
			if (strncmp(v, casts[i], strlen(casts[i])) == 0) {
				const char *gt;
				int level = 1;
				v += strlen(casts[i]);
				for (gt = v; *gt && level > 0; gt++)
					if (*gt == '<')
						level++;
					else if (*gt == '>')
						level--;
				if (level != 0)
					return 0;
				text = xstrndup(v, (size_t)(gt - 1 - v));
				n = plan_type_classes(pl, ctx, text, out, max);
				if (n == 0)
					type_class(text, text + strlen(text), cls, size);
				free(text);
				return n;
			}
		for (w = v; c_ident_char(*w) || (w[0] == ':' && w[1] == ':');)
			w += *w == ':' ? 2 : 1;
		if (w == v)
			return 0;
		{
			const char *after = w;
			int level = 0;
			if (*after == '<') {
				for (; *after; after++) {
					if (*after == '<')
						level++;
					else if (*after == '>' && --level == 0) {
						after++;
						break;
					}
				}
			}
			while (*after == ' ')
				after++;
			text = xstrndup(v, (size_t)(after - v));
			if (*after == '(' || *after == '{') {
				/* T(...) / T{...}: a temporary of type T */
				n = plan_type_classes(pl, ctx, text, out, max);
				if (n == 0)
					type_class(text, text + strlen(text), cls, size);
			} else if (strchr(text, ':') == NULL && strchr(text, '<') == NULL && depth < 4) {
				/* another variable: `auto *combiner = &c;` */
				n = var_classes(pl, f, text, ctx->at, out, max, cls, size, NULL, depth + 1);
			} else {
				n = 0;
			}
			free(text);
			return n;
		}
	}
	text = xstrndup(d->ts, (size_t)(d->te - d->ts));
	n = plan_type_classes(pl, ctx, text, out, max);
	free(text);
	return n;
}

/* The classes of variable `var` as seen from function f at offset `at`: of a
 * parameter, the last local declaration before `at`, or a member of the
 * function's class (in its file or in the files defining functions of the
 * same class). When the type names no class definition the scan has seen,
 * its written class name goes to `cls` (empty when none). */
static size_t var_classes(struct plan *pl, struct plan_fref f, const char *var, uint32_t at, struct plan_cref *out,
			  size_t max, char *cls, size_t size, bool *lambda, int depth)
{
	const struct cxx_func *fn = plan_func(pl, f);
	struct plan_tctx ctx = { f.unit, f.func, at, NULL };
	struct decl_found d;

	cls[0] = '\0';
	for (size_t i = 0; i < fn->nparams; i++) {
		if (fn->params[i].name && strcmp(fn->params[i].name, var) == 0) {
			const char *t = fn->params[i].type;
			struct decl_found pd = { t, t + strlen(t), NULL, false };
			return decl_classes(pl, f, &ctx, &pd, out, max, cls, size, depth);
		}
	}
	if (find_decl(pl, f.unit, fn->body_range.start, at, var, true, &d)) {
		if (d.lambda) {
			if (lambda)
				*lambda = true;
			return 0;
		}
		return decl_classes(pl, f, &ctx, &d, out, max, cls, size, depth);
	}
	return member_var_classes(pl, f, var, out, max, cls, size, depth);
}

/* The classes of `var` as a member of f's class: declared in the files
 * defining functions of the same class (what is found is the same for every
 * function of the class and unit: kept). `cls` as for var_classes; it stays
 * empty when no declaration of the member is found. */
static size_t member_var_classes(struct plan *pl, struct plan_fref f, const char *var, struct plan_cref *out,
				 size_t max, char *cls, size_t size, int depth)
{
	struct plan_index *ix = pl->index;
	struct plan_key key = { .n = 0 };
	char scope[512];
	const size_t *a;
	const int *b;
	size_t n;

	plan_func_scope(plan_func(pl, f), scope, sizeof(scope));
	plan_ks(plan_ks(plan_ks(plan_ks(plan_kn(&key, (long long)f.unit), "\002"), scope), "\002"), var);
	if (plan_map_get(ix->members, key.s, &a, &b) > 0) {
		const struct plan_member *m = &ix->member_v[a[0]];
		n = m->n < max ? m->n : max;
		memcpy(out, m->cls, n * sizeof(*out));
		snprintf(cls, size, "%s", m->name);
		return n;
	}
	n = member_classes(pl, f, var, scope, out, max, cls, size, depth);
	XGROW(ix->member_v, ix->member_cap, ix->nmember + 1);
	ix->member_v[ix->nmember].n = n < PLAN_RESOLVE_MAX ? n : PLAN_RESOLVE_MAX;
	memcpy(ix->member_v[ix->nmember].cls, out, ix->member_v[ix->nmember].n * sizeof(*out));
	snprintf(ix->member_v[ix->nmember].name, sizeof(ix->member_v[ix->nmember].name), "%s", cls);
	plan_map_add(ix->members, key.s, ix->nmember++, 0);
	return n;
}

/* The classes of a member `var` of the class of f, whose scope is `scope`. */
static size_t member_classes(struct plan *pl, struct plan_fref f, const char *var, const char *scope,
			     struct plan_cref *out, size_t max, char *cls, size_t size, int depth)
{
	const struct cxx_func *fn = plan_func(pl, f);
	const struct src_file *file = pl->units[f.unit].file;
	struct plan_tctx ctx = { f.unit, CXX_NONE, 0, scope };
	struct decl_found d;

	cls[0] = '\0';
	if (find_decl(pl, f.unit, 0, file->len, var, false, &d)) {
		ctx.at = (uint32_t)(d.ts - file->data);
		return decl_classes(pl, f, &ctx, &d, out, max, cls, size, depth);
	}
	{
		char c[512];
		const size_t *a;
		const int *b;
		size_t n = plan_map_get(pl->index->by_class, func_class(fn, c, sizeof(c)), &a, &b);
		for (size_t i = 0; i < n; i++) {
			const struct src_file *uf = pl->units[a[i]].file;
			if (a[i] != f.unit && find_decl(pl, a[i], 0, uf->len, var, false, &d)) {
				ctx.unit = a[i];
				ctx.at = (uint32_t)(d.ts - uf->data);
				return decl_classes(pl, f, &ctx, &d, out, max, cls, size, depth);
			}
		}
	}
	return 0;
}

/* ------------------------------------------------------------ resolution */

static size_t take(struct plan *pl, const struct plan_map *m, const char *key, const struct cxx_call *c,
		   struct plan_fref *out, size_t max, size_t n)
{
	const size_t *a;
	const int *b;
	size_t k = plan_map_get(m, key, &a, &b);
	bool exact = false;

	/* explicit template arguments pick the specialisation when one matches */
	if (c->template_args)
		for (size_t i = 0; i < k; i++) {
			struct plan_fref r = { a[i], b[i] };
			if (plan_func(pl, r)->template_args && plan_targs_equal(plan_func(pl, r)->template_args, c->template_args))
				exact = true;
		}
	for (size_t i = 0; i < k && n < max; i++) {
		struct plan_fref r = { a[i], b[i] };
		const struct cxx_func *fn = plan_func(pl, r);
		if (exact && !(fn->template_args && plan_targs_equal(fn->template_args, c->template_args)))
			continue;
		out[n++] = r;
	}
	return n;
}

/* True when `scope` (of a candidate) encloses or equals the caller's scope
 * in namespace terms: a prefix of it, or empty. */
static bool scope_visible(const char *cand, const char *caller)
{
	size_t n = strlen(cand);

	if (n == 0)
		return true;
	return strncmp(cand, caller, n) == 0 && (caller[n] == '\0' || (caller[n] == ':' && caller[n + 1] == ':'));
}

/* Does the scan know a class (not a namespace) of this name? */
static bool is_class_name(const struct plan *pl, const char *name)
{
	const size_t *a;
	const int *b;
	size_t k = name[0] ? plan_map_get(pl->index->types, name, &a, &b) : 0;

	for (size_t i = 0; i < k; i++)
		if (pl->units[a[i]].outline->types[b[i]].kind == CXX_TYPE_CLASS)
			return true;
	return false;
}

/* The definitions of `method` reached on an object of classes `cls`, or,
 * when no class definition is known, of the written class name `name`. */
static size_t on_classes(struct plan *pl, const struct plan_cref *cls, size_t ncls, const char *name, const char *method,
			 const struct cxx_call *c, struct plan_fref *out, size_t max)
{
	char key[1024];
	size_t n = 0;

	if (ncls)
		n = plan_class_members(pl, cls, ncls, method, c->template_args, out, max);
	if (n == 0 && name[0]) {
		member_key(key, sizeof(key), name, method);
		n = take(pl, pl->index->by_member, key, c, out, max, 0);
	}
	return n;
}

#define MAX_CLASSES 16

/* ------------------------------------------------------------ constructions */

static bool is_type_name(const struct plan *pl, const char *name)
{
	const size_t *a;
	const int *b;

	return name[0] && plan_map_get(pl->index->types, name, &a, &b) > 0;
}

/* Did the scanner leave out a constructor of a class called `name`? Then a
 * construction that finds none is a call the planner could not follow. */
static bool ctor_unfollowed(const struct plan *pl, const char *name)
{
	size_t n = strlen(name);

	for (size_t u = 0; u < pl->nunits; u++) {
		const struct cxx_outline *ol = pl->units[u].outline;
		for (size_t k = 0; k < ol->nunfollowed; k++) {
			const char *q = ol->unfollowed[k].qualified_name;
			size_t ql = strlen(q);
			/* "...Name::Name" */
			if (ql >= 2 * n + 2 && strcmp(q + ql - n, name) == 0 && strncmp(q + ql - 2 * n - 2, name, n) == 0 &&
			    q[ql - n - 1] == ':' && q[ql - n - 2] == ':' && (ql == 2 * n + 2 || q[ql - 2 * n - 3] == ':'))
				return true;
		}
	}
	return false;
}

static size_t add_target(struct plan_fref *out, size_t n, size_t max, struct plan_fref r)
{
	for (size_t i = 0; i < n; i++)
		if (out[i].unit == r.unit && out[i].func == r.func)
			return n;
	if (n < max)
		out[n++] = r;
	return n;
}

/* What making an object of classes `cls` with the call's arguments runs:
 * for each constructor that takes them, what its mem-initializers
 * construct and call (before its body), then the constructor. When there
 * is none, the construction is not a call the planner failed to follow
 * (*quiet), unless the scanner left a constructor of the class out. */
static size_t construct(struct plan *pl, const struct plan_cref *cls, size_t ncls, const struct cxx_call *c,
			struct plan_fref *out, size_t max, bool *quiet)
{
	struct plan_fref ctors[PLAN_RESOLVE_MAX];
	size_t nctors = plan_class_constructors(pl, cls, ncls, c->nargs, ctors, PLAN_RESOLVE_MAX), n = 0;

	if (nctors == 0) {
		bool left_out = ncls == 0 && ctor_unfollowed(pl, c->name);
		for (size_t i = 0; i < ncls && !left_out; i++)
			left_out = ctor_unfollowed(pl, pl->units[cls[i].unit].outline->types[cls[i].type].name);
		*quiet = !left_out;
		return 0;
	}
	for (size_t i = 0; i < nctors; i++) {
		const struct cxx_body *b = &plan_func(pl, ctors[i])->body;
		for (size_t k = 0; k < b->ncalls && b->calls[k].stmt == CXX_NONE; k++) {
			struct plan_fref t[PLAN_RESOLVE_MAX];
			bool q;
			size_t nt = plan_resolve_call(pl, ctors[i], &b->calls[k], t, PLAN_RESOLVE_MAX, &q);
			for (size_t j = 0; j < nt; j++)
				n = add_target(out, n, max, t[j]);
		}
		n = add_target(out, n, max, ctors[i]);
	}
	return n;
}

/* A construction the scanner recognised: of the type it writes or, for a
 * mem-initializer, of the member it names (else of the base class). */
static size_t resolve_construction(struct plan *pl, struct plan_fref f, const struct cxx_call *c,
				   struct plan_fref *out, size_t max, bool *quiet)
{
	struct plan_cref crefs[MAX_CLASSES];
	struct plan_tctx ctx = { f.unit, f.func, c->range.start, NULL };
	char cls[512] = "";
	size_t nc = 0;

	/* a qualified name, template arguments or a type name: a base class */
	if (c->constructs == CXX_CONSTRUCT_INITIALIZER && !c->template_args && !strchr(c->callee, ':') &&
	    !is_type_name(pl, c->name))
		nc = member_var_classes(pl, f, c->name, crefs, MAX_CLASSES, cls, sizeof(cls), 0);
	if (nc == 0 && !cls[0] && plan_type_known(pl, &ctx, c->callee, c->name))
		nc = plan_type_classes(pl, &ctx, c->callee, crefs, MAX_CLASSES);
	return construct(pl, crefs, nc, c, out, max, quiet);
}

/* A written `T(args)` whose T names a class of the sources (maybe through
 * an alias) makes a temporary: true, its constructors in *n. */
static bool temporary(struct plan *pl, struct plan_fref f, const struct cxx_call *c, struct plan_fref *out,
		      size_t max, bool *quiet, size_t *n)
{
	struct plan_cref crefs[MAX_CLASSES];
	struct plan_tctx ctx = { f.unit, f.func, c->range.start, NULL };
	size_t nc;

	if (!is_type_name(pl, c->name))
		return false;
	nc = plan_type_classes(pl, &ctx, c->callee, crefs, MAX_CLASSES);
	if (nc == 0)
		return false;
	*n = construct(pl, crefs, nc, c, out, max, quiet);
	return true;
}

static size_t resolve_call(struct plan *pl, struct plan_fref f, const struct cxx_call *c, struct plan_fref *out,
			   size_t max, bool *quiet)
{
	const struct cxx_func *fn = plan_func(pl, f);
	const struct plan_index *ix = pl->index;
	char cls[512], key[1024];
	const char *obj = c->object;
	struct plan_cref crefs[MAX_CLASSES];
	struct plan_tctx ctx = { f.unit, f.func, c->range.start, NULL };
	size_t n = 0, nc;

	*quiet = false;
	if (!c->name || plan_is_trace_call(c))
		return 0;
	if (c->constructs != CXX_CONSTRUCT_CALL)
		return resolve_construction(pl, f, c, out, max, quiet);
	if (obj && (strcmp(obj, "this") == 0 || strcmp(obj, "(*this)") == 0))
		obj = NULL;
	if (obj && strncmp(obj, "this->", 6) == 0)
		obj += 6;
	if (!obj) {
		const char *callee = c->callee ? c->callee : c->name;
		const char *qual_end = NULL;
		int angle = 0;
		/* Qualified calls: Cls::Method(...) or ns::Func(...) */
		for (const char *p = callee; *p; p++) {
			if (*p == '<')
				angle++;
			else if (*p == '>')
				angle--;
			else if (angle == 0 && p[0] == ':' && p[1] == ':')
				qual_end = p;
		}
		if (strncmp(callee, "this->", 6) == 0)
			qual_end = NULL;
		if (qual_end) {
			char q[512];
			size_t ql = (size_t)(qual_end - callee);
			if (ql >= sizeof(q))
				ql = sizeof(q) - 1;
			memcpy(q, callee, ql);
			q[ql] = '\0';
			last_component(q, cls, sizeof(cls));
			member_key(key, sizeof(key), cls, c->name);
			n = take(pl, ix->by_member, key, c, out, max, n);
			if (n == 0) {
				/* the qualifier may be an alias of a class: MatmulKernel::Run(...) */
				nc = plan_type_classes(pl, &ctx, q, crefs, MAX_CLASSES);
				n = nc ? plan_class_members(pl, crefs, nc, c->name, c->template_args, out, max) : 0;
			}
			if (n == 0)
				temporary(pl, f, c, out, max, quiet, &n);
			return n;
		}
		if (func_class(fn, cls, sizeof(cls))[0]) {
			char scope[512];
			member_key(key, sizeof(key), cls, c->name);
			n = take(pl, ix->by_member, key, c, out, max, n);
			if (n)
				return n;
			/* a method of a base class */
			nc = plan_type_classes(pl, &ctx, plan_func_scope(fn, scope, sizeof(scope)), crefs, MAX_CLASSES);
			if (nc && (n = plan_class_members(pl, crefs, nc, c->name, c->template_args, out, max)) > 0)
				return n;
		}
		{
			const size_t *a;
			const int *b;
			char fs[512];
			size_t k = plan_map_get(ix->by_name, c->name, &a, &b);
			if (k)
				plan_func_scope(fn, fs, sizeof(fs));
			for (size_t i = 0; i < k && n < max; i++) {
				struct plan_fref r = { a[i], b[i] };
				const struct cxx_func *cand = plan_func(pl, r);
				char cs[512];
				if (cand->in_class || !scope_visible(plan_func_scope(cand, cs, sizeof(cs)), fs))
					continue;
				if (c->template_args && cand->template_args && !plan_targs_equal(cand->template_args, c->template_args))
					continue;
				out[n++] = r;
			}
			if (n)
				return n;
			/* a free function of another namespace (`using namespace` is not
			 * tracked): the only definition of the name there is */
			{
				int only = -1;
				for (size_t i = 0; i < k; i++) {
					struct plan_fref r = { a[i], b[i] };
					const struct cxx_func *cand = plan_func(pl, r);
					char cs[512], cl[512];
					if (cand->in_class || is_class_name(pl, last_component(plan_func_scope(cand, cs, sizeof(cs)), cl, sizeof(cl))))
						continue; /* a member function */
					if (only >= 0) {
						only = -2;
						break;
					}
					only = (int)i;
				}
				if (only >= 0 && max > 0) {
					out[0].unit = a[only];
					out[0].func = b[only];
					return 1;
				}
			}
		}
		if (temporary(pl, f, c, out, max, quiet, &n))
			return n;
		/* a variable called as a function: its operator() */
		if (strchr(c->name, ':') == NULL) {
			nc = var_classes(pl, f, c->name, c->range.start, crefs, MAX_CLASSES, cls, sizeof(cls), quiet, 0);
			if (*quiet)
				return 0; /* a lambda */
			return on_classes(pl, crefs, nc, cls, "operator()", c, out, max);
		}
		return 0;
	}
	/* obj.method(...) / obj->method(...): the object's class */
	{
		char var[256];
		size_t vn = 0;
		while (obj[vn] && (c_ident_char(obj[vn])) && vn + 1 < sizeof(var)) {
			var[vn] = obj[vn];
			vn++;
		}
		var[vn] = '\0';
		if (vn > 0 && obj[vn] == '\0') {
			nc = var_classes(pl, f, var, c->range.start, crefs, MAX_CLASSES, cls, sizeof(cls), NULL, 0);
			n = on_classes(pl, crefs, nc, cls, c->name, c, out, max);
			if (n)
				return n;
		}
	}
	/* unknown object type: a method name defined once in the sources */
	{
		const size_t *a;
		const int *b;
		size_t k = plan_map_get(ix->by_name, c->name, &a, &b);
		if (k == 1 && strcmp(c->name, "operator()") != 0 && max > 0) {
			out[0].unit = a[0];
			out[0].func = b[0];
			return 1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ macros */

/* `text` with every whole-word macro parameter replaced by the argument the
 * invocation passes (newly allocated). */
/* Where the sources define functions called `name`: "A::name (a.h:3), B::name
 * (b.h:9)" (up to three), newly allocated. */
static char *definitions_of(struct plan *pl, const char *name)
{
	const size_t *a;
	const int *b;
	size_t k = plan_map_get(pl->index->by_name, name, &a, &b), n = 0;
	char *out = xstrdup("");

	for (size_t i = 0; i < k && i < 3; i++) {
		struct plan_fref r = { a[i], b[i] };
		const struct cxx_func *d = plan_func(pl, r);
		char *next = xasprintf("%s%s%s (%s:%zu)", out, n++ ? ", " : "", d->qualified_name, pl->units[a[i]].path,
				       src_file_line(pl->units[a[i]].file, d->name_range.start));
		free(out);
		out = next;
	}
	if (k > 3) {
		char *next = xasprintf("%s and %zu more", out, k - 3);
		free(out);
		out = next;
	}
	return out;
}

char *plan_unresolved_why(struct plan *pl, struct plan_fref f, const struct cxx_call *c)
{
	const char *obj = c->object;
	char *defs = definitions_of(pl, c->name ? c->name : ""), *why;

	if (obj && strncmp(obj, "this->", 6) == 0)
		obj += 6;
	if (obj && strcmp(obj, "this") != 0 && strcmp(obj, "(*this)") != 0) {
		char var[256], cls[512];
		size_t vn = 0, nc;
		struct plan_cref crefs[MAX_CLASSES];
		while (obj[vn] && c_ident_char(obj[vn]) && vn + 1 < sizeof(var)) {
			var[vn] = obj[vn];
			vn++;
		}
		var[vn] = '\0';
		if (vn == 0 || obj[vn] != '\0')
			why = xasprintf("the object '%s' is an expression whose type the planner does not work out; "
					"the sources define %s", obj, defs);
		else if ((nc = var_classes(pl, f, var, c->range.start, crefs, MAX_CLASSES, cls, sizeof(cls), NULL, 0)) > 0)
			why = xasprintf("'%s' is a '%s', which has no method '%s' (nor its bases); the sources define %s",
					var, pl->units[crefs[0].unit].outline->types[crefs[0].type].name, c->name, defs);
		else if (cls[0])
			why = xasprintf("'%s' is a '%s', which names no class the sources define (a template parameter, "
					"a library type?); the sources define %s", var, cls, defs);
		else
			why = xasprintf("no declaration of '%s' with a type the planner reads (a parameter, a local, a "
					"member); the sources define %s", var, defs);
	} else {
		char scope[512];
		why = xasprintf("none of them is visible from '%s': the sources define %s",
				plan_func_scope(plan_func(pl, f), scope, sizeof(scope))[0] ? scope : "the global scope", defs);
	}
	free(defs);
	return why;
}

static char *substitute(const char *text, const char *params, const struct cxx_call *inv)
{
	const char *as[32], *ae[32];
	size_t np = 0, cap = strlen(text) * 4 + 64, n = 0;
	char *out = xmalloc(cap);

	/* the parameter names, in order */
	for (const char *p = params; *p && np < 32;) {
		while (*p == ' ' || *p == ',')
			p++;
		as[np] = p;
		while (*p && *p != ',' && *p != ' ')
			p++;
		ae[np] = p;
		if (ae[np] > as[np])
			np++;
	}
	for (const char *p = text; *p;) {
		if (c_ident_char(*p) && (p == text || !c_ident_char(p[-1]))) {
			const char *e = p;
			size_t k;
			while (c_ident_char(*e))
				e++;
			for (k = 0; k < np; k++)
				if ((size_t)(ae[k] - as[k]) == (size_t)(e - p) && strncmp(as[k], p, (size_t)(e - p)) == 0)
					break;
			if (k < np && k < inv->nargs) {
				size_t l = strlen(inv->args[k]);
				if (n + l + 1 >= cap)
					out = xrealloc(out, cap = (n + l + 1) * 2);
				memcpy(out + n, inv->args[k], l);
				n += l;
			} else {
				if (n + (size_t)(e - p) + 1 >= cap)
					out = xrealloc(out, cap = (n + (size_t)(e - p) + 1) * 2);
				memcpy(out + n, p, (size_t)(e - p));
				n += (size_t)(e - p);
			}
			p = e;
			continue;
		}
		if (n + 2 >= cap)
			out = xrealloc(out, cap *= 2);
		out[n++] = *p++;
	}
	out[n] = '\0';
	return out;
}

size_t plan_resolve_macro_call(struct plan *pl, struct plan_fref f, const struct cxx_call *inv, size_t mu, int mi,
			       const struct cxx_call *c, struct plan_fref *out, size_t max, bool *quiet)
{
	const struct cxx_macro *m = &pl->units[mu].outline->macros[mi];
	struct decl_found d;
	char var[256];
	size_t vn = 0;

	*quiet = false;
	if (c->object) {
		while (c->object[vn] && c_ident_char(c->object[vn]) && vn + 1 < sizeof(var)) {
			var[vn] = c->object[vn];
			vn++;
		}
		var[vn] = '\0';
		if (vn == 0 || c->object[vn] != '\0')
			vn = 0;
	}
	/* obj.Method() where the macro body declares obj with a type made of its
	 * parameters: `sortClass1<T> op; op.Process();` */
	if (vn > 0 && m->params) {
		if (find_decl(pl, mu, m->body_range.start, c->range.start, var, true, &d) && !d.lambda) {
			char *written = xstrndup(d.ts, (size_t)(d.te - d.ts));
			char *type = substitute(written, m->params, inv);
			struct plan_cref crefs[MAX_CLASSES];
			struct plan_tctx ctx = { f.unit, f.func, inv->range.start, NULL };
			char cls[256];
			size_t nc = plan_type_classes(pl, &ctx, type, crefs, MAX_CLASSES), n;
			type_class(type, type + strlen(type), cls, sizeof(cls));
			n = on_classes(pl, crefs, nc, cls, c->name, c, out, max);
			free(type);
			free(written);
			return n;
		}
	}
	/* obj.Method() of an object the invoking function declares before the
	 * invocation (`KernelA<1> op; INIT_AND_PROCESS;`): its type there */
	if (vn > 0) {
		const struct cxx_func *fn = plan_func(pl, f);
		if (find_decl(pl, f.unit, fn->body_range.start, inv->range.start, var, true, &d) && !d.lambda) {
			char *type = xstrndup(d.ts, (size_t)(d.te - d.ts));
			struct plan_cref crefs[MAX_CLASSES];
			struct plan_tctx ctx = { f.unit, f.func, inv->range.start, NULL };
			char cls[256];
			size_t nc = plan_type_classes(pl, &ctx, type, crefs, MAX_CLASSES), n;
			type_class(type, type + strlen(type), cls, sizeof(cls));
			n = on_classes(pl, crefs, nc, cls, c->name, c, out, max);
			free(type);
			return n;
		}
	}
	return plan_resolve_call(pl, f, c, out, max, quiet);
}

/* The planner asks about each call several times (core types, the walk,
 * whether a callee has a point...): a call of a function's own body is
 * resolved once, its targets kept in the index's pool. A call asked about
 * while it is being resolved (a constructor whose mem-initializers make an
 * object of its own class) reaches nothing. */
#define RES_UNKNOWN (-1)
#define RES_RESOLVING (-2)

size_t plan_resolve_call(struct plan *pl, struct plan_fref f, const struct cxx_call *c, struct plan_fref *out,
			 size_t max, bool *quiet)
{
	const struct cxx_body *b = &plan_func(pl, f)->body;
	struct plan_index *ix = pl->index;
	struct plan_finfo *fi = &ix->info[plan_fid(pl, f)];
	size_t k, n;

	if (c < b->calls || c >= b->calls + b->ncalls || max < PLAN_RESOLVE_MAX)
		return resolve_call(pl, f, c, out, max, quiet);
	k = (size_t)(c - b->calls);
	if (!fi->res_first) {
		fi->res_first = xmalloc((b->ncalls + 1) * sizeof(*fi->res_first));
		for (size_t i = 0; i < b->ncalls; i++)
			fi->res_first[i] = RES_UNKNOWN;
	}
	if (fi->res_first[k] == RES_RESOLVING) {
		*quiet = true;
		return 0;
	}
	if (fi->res_first[k] == RES_UNKNOWN) {
		struct plan_fref t[PLAN_RESOLVE_MAX];
		bool q = false;
		fi->res_first[k] = RES_RESOLVING;
		n = resolve_call(pl, f, c, t, PLAN_RESOLVE_MAX, &q);
		XGROW(ix->res_pool, ix->res_cap, ix->res_n + n + 1);
		fi->res_first[k] = (long)ix->res_n;
		/* the count, then the quiet flag, then the targets */
		ix->res_pool[ix->res_n].unit = n;
		ix->res_pool[ix->res_n].func = q;
		ix->res_n++;
		memcpy(ix->res_pool + ix->res_n, t, n * sizeof(*t));
		ix->res_n += n;
	}
	{
		const struct plan_fref *r = ix->res_pool + fi->res_first[k];
		n = r->unit < max ? r->unit : max;
		*quiet = r->func != 0;
		memcpy(out, r + 1, n * sizeof(*out));
	}
	return n;
}
