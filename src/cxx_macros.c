/* The macro table of one scan: what -D/-U fix, what the files define and
 * undefine, and what the choice of #if branches assumed, so that the
 * choices agree across the files (the rules are in cxx_pp.h). */
#include "cxx_macros.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct cxx_macro_table {
	struct macro *slots;
	size_t cap; /* power of two */
	size_t used;
};

static size_t name_hash(const char *s, size_t len)
{
	size_t h = 1469598103934665603ull & SIZE_MAX;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

struct cxx_macro_table *cxx_macros_new(void)
{
	struct cxx_macro_table *mt = xcalloc(1, sizeof(*mt));

	mt->cap = 64;
	mt->slots = xcalloc(mt->cap, sizeof(*mt->slots));
	return mt;
}

void cxx_macros_free(struct cxx_macro_table *mt)
{
	if (!mt)
		return;
	for (size_t i = 0; i < mt->cap; i++)
		free(mt->slots[i].name);
	free(mt->slots);
	free(mt);
}

struct macro *cxx_macro_find(const struct cxx_macro_table *mt, const char *s, size_t len)
{
	size_t h = name_hash(s, len) & (mt->cap - 1);

	while (mt->slots[h].name) {
		struct macro *m = &mt->slots[h];
		if (m->len == len && memcmp(m->name, s, len) == 0)
			return m;
		h = (h + 1) & (mt->cap - 1);
	}
	return NULL;
}

struct macro *cxx_macro_add(struct cxx_macro_table *mt, const char *s, size_t len)
{
	struct macro *m = cxx_macro_find(mt, s, len);
	size_t h;

	if (m)
		return m;
	if ((mt->used + 1) * 2 > mt->cap) {
		struct macro *old = mt->slots;
		size_t oldcap = mt->cap;
		mt->cap *= 2;
		mt->slots = xcalloc(mt->cap, sizeof(*mt->slots));
		for (size_t i = 0; i < oldcap; i++) {
			if (!old[i].name)
				continue;
			h = name_hash(old[i].name, old[i].len) & (mt->cap - 1);
			while (mt->slots[h].name)
				h = (h + 1) & (mt->cap - 1);
			mt->slots[h] = old[i];
		}
		free(old);
	}
	h = name_hash(s, len) & (mt->cap - 1);
	while (mt->slots[h].name)
		h = (h + 1) & (mt->cap - 1);
	m = &mt->slots[h];
	memset(m, 0, sizeof(*m));
	m->name = xstrndup(s, len);
	m->len = len;
	mt->used++;
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
