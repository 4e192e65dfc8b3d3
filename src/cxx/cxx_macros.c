/* The macro table of one scan: what -D/-U fix, what the files define and
 * undefine, and what the choice of #if branches assumed, so that the
 * choices agree across the files (the rules are in cxx_pp.h). */
#include "cxx_macros.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "index_table.h"
#include "xalloc.h"

/* The macros in order of first mention, indexed by name. A pointer into v
 * is good until the next cxx_macro_add. */
struct cxx_macro_table {
	struct macro *v;
	size_t n, cap;
	struct index_table index;
};

/* A name as the scanner meets it, a slice of the source (pointer and
 * length, index_hash_bytes); plan_resolve.c's key of the same shape is a
 * NUL-terminated composite string hashed by words: two keys, one table. */
struct macro_key {
	const struct cxx_macro_table *mt;
	const char *s;
	size_t len;
};

static bool same_macro(const void *ctx, size_t item)
{
	const struct macro_key *k = ctx;
	const struct macro *m = &k->mt->v[item];
	return m->len == k->len && memcmp(m->name, k->s, k->len) == 0;
}

struct cxx_macro_table *cxx_macros_new(void)
{
	return xcalloc(1, sizeof(struct cxx_macro_table));
}

void cxx_macros_free(struct cxx_macro_table *mt)
{
	if (!mt)
		return;
	for (size_t i = 0; i < mt->n; i++)
		free(mt->v[i].name);
	free(mt->v);
	index_table_free(&mt->index);
	free(mt);
}

struct macro *cxx_macro_find(const struct cxx_macro_table *mt, const char *s, size_t len)
{
	struct macro_key key = { mt, s, len };
	size_t k = index_table_find(&mt->index, index_hash_bytes(s, len), same_macro, &key);

	return k == SIZE_MAX ? NULL : &mt->v[k];
}

struct macro *cxx_macro_add(struct cxx_macro_table *mt, const char *s, size_t len)
{
	struct macro_key key = { mt, s, len };
	uint64_t h = index_hash_bytes(s, len);
	size_t k = index_table_find(&mt->index, h, same_macro, &key);
	struct macro *m;

	if (k != SIZE_MAX)
		return &mt->v[k];
	XGROW(mt->v, mt->cap, mt->n + 1);
	m = &mt->v[mt->n];
	memset(m, 0, sizeof(*m));
	m->name = xstrndup(s, len);
	m->len = len;
	index_table_add(&mt->index, h, mt->n++);
	return m;
}

static bool is_ident(const char *s, size_t len)
{
	if (len == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* Parses a preprocessor integer (suffixes ignored); false when it is not one. */
bool cxx_pp_parse_int(const char *s, size_t len, long long *out)
{
	unsigned long long v = 0;
	unsigned base = 10;
	size_t i = 0;

	if (len == 0 || s[0] < '0' || s[0] > '9')
		return false;
	if (len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, i = 2;
	else if (len > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, i = 2;
	else if (s[0] == '0')
		base = 8;
	for (; i < len; i++) {
		unsigned d;
		char c = s[i];
		if (c == '\'')
			continue;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
	}
	for (; i < len; i++)
		if (!strchr("uUlLzZ", s[i]))
			return false;
	*out = (long long)v;
	return true;
}

int cxx_macros_define(struct cxx_macro_table *mt, const char *spec)
{
	const char *eq = strchr(spec, '=');
	size_t len = eq ? (size_t)(eq - spec) : strlen(spec);
	struct macro *m;

	if (!is_ident(spec, len))
		return -1;
	m = cxx_macro_add(mt, spec, len);
	m->state = M_DEFINED;
	m->origin = M_FIXED;
	m->has_value = true;
	m->value = 1;
	if (eq && !cxx_pp_parse_int(eq + 1, strlen(eq + 1), &m->value))
		m->has_value = false;
	return 0;
}

int cxx_macros_undef(struct cxx_macro_table *mt, const char *name)
{
	struct macro *m;

	if (!is_ident(name, strlen(name)))
		return -1;
	m = cxx_macro_add(mt, name, strlen(name));
	m->state = M_UNDEFINED;
	m->origin = M_FIXED;
	m->has_value = false;
	return 0;
}

bool cxx_macros_is_else(const struct cxx_macro_table *mt, const char *name, size_t len)
{
	const struct macro *m = mt ? cxx_macro_find(mt, name, len) : NULL;

	return m && m->state == M_DEFINED && m->else_body;
}
