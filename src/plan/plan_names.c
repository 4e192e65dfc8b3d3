/* The planner's names: the string map its indexes are made of (a name to
 * (unit, item) pairs), a function's enclosing scope, the comparison of
 * template arguments -- what the call graph (plan_resolve.c) and the type
 * lookups (plan_types.c) both read -- and the names of its enums. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "index_table.h"
#include "plan_int.h"
#include "text_compare.h"
#include "xalloc.h"

/* ------------------------------------------------------------ string map */

struct plan_map_entry {
	char *key;
	size_t *a;
	int *b;
	size_t n, cap;
};

/* The entries in order of first key, indexed by key (index_table.h). */
struct plan_map {
	struct plan_map_entry *v;
	size_t n, cap;
	struct index_table index;
};

/* A NUL-terminated "unit\002scope\002var" (index_hash_words); cxx_macros.c's
 * key of the same shape is a slice of the source: two keys, one table. */
struct plan_map_key {
	const struct plan_map *m;
	const char *key;
};

static bool same_key(const void *ctx, size_t item)
{
	const struct plan_map_key *k = ctx;
	return strcmp(k->m->v[item].key, k->key) == 0;
}

struct plan_map *plan_map_new(void)
{
	return xcalloc(1, sizeof(struct plan_map));
}

void plan_map_free(struct plan_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].key);
		free(m->v[i].a);
		free(m->v[i].b);
	}
	free(m->v);
	index_table_free(&m->index);
	free(m);
}

void plan_map_add(struct plan_map *m, const char *key, size_t a, int b)
{
	struct plan_map_key k = { m, key };
	size_t len = strlen(key);
	uint64_t h = index_hash_words(key, len);
	size_t i = index_table_find(&m->index, h, same_key, &k);
	struct plan_map_entry *e;

	if (i == SIZE_MAX) {
		XGROW(m->v, m->cap, m->n + 1);
		i = m->n++;
		memset(&m->v[i], 0, sizeof(m->v[i]));
		m->v[i].key = xstrndup(key, len);
		index_table_add(&m->index, h, i);
	}
	e = &m->v[i];
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 2;
		e->a = xrealloc(e->a, e->cap * sizeof(*e->a));
		e->b = xrealloc(e->b, e->cap * sizeof(*e->b));
	}
	e->a[e->n] = a;
	e->b[e->n] = b;
	e->n++;
}

size_t plan_map_get(const struct plan_map *m, const char *key, const size_t **a, const int **b)
{
	struct plan_map_key k = { m, key };
	size_t i = index_table_find(&m->index, index_hash_words(key, strlen(key)), same_key, &k);

	if (i == SIZE_MAX)
		return 0;
	*a = m->v[i].a;
	*b = m->v[i].b;
	return m->v[i].n;
}

/* The enclosing scope of a function from its qualified name (an out-of-class
 * definition has an empty `scope`): "ns::Cls" of "ns::Cls::operator()<X>".
 * The scanner writes the qualified name as the scope, "::", the name and
 * its explicit template arguments in brackets: what is left of it without
 * the last two. */
const char *plan_func_scope(const struct cxx_func *fn, char *buf, size_t size)
{
	const char *q = fn->qualified_name ? fn->qualified_name : "";
	size_t n = strlen(q), tail = strlen(fn->name ? fn->name : "");

	if (fn->template_args)
		tail += strlen(fn->template_args) + 2;
	n = n >= tail + 2 ? n - tail - 2 : 0;
	if (n >= size)
		n = size - 1;
	memcpy(buf, q, n);
	buf[n] = '\0';
	return buf;
}

bool plan_targs_equal(const char *a, const char *b)
{
	return !a || !b || text_same_but_blanks(a, b);
}


/* The names of the planner's enums, one X-macro table each. */
const char *plan_kind_name(enum plan_kind k)
{
	static const char *const names[] = {
#define X(n) #n,
		PLAN_KINDS(X)
#undef X
	};
	return (unsigned)k < PLAN_KIND_COUNT ? names[k] : "?";
}

const char *plan_fate_name(enum plan_fate f)
{
	static const char *const names[] = {
#define X(id, name) name,
		PLAN_FATES(X)
#undef X
	};
	return (unsigned)f < PLAN_FATE_COUNT ? names[f] : "?";
}

const char *plan_core_name(unsigned core)
{
	switch (core & PLAN_CORE_MIX) {
	case PLAN_CORE_AIC:
		return "aic";
	case PLAN_CORE_AIV:
		return "aiv";
	case PLAN_CORE_MIX:
		return "mix";
	default:
		return "none";
	}
}

