/* The table of slot layouts (dump_layout.h) and the lookups over it. */
#include "dump_layout.h"

#include <stdio.h>
#include <string.h>

static const struct dump_layout *const layouts[DUMP_LAYOUT_COUNT] = {
#define X(ops) &ops,
	DUMP_LAYOUT_LIST(X)
#undef X
};

const struct dump_layout *dump_layout_at(size_t i)
{
	return layouts[i];
}

size_t dump_layout_index(const struct dump_layout *l)
{
	size_t i = 0;

	while (i < DUMP_LAYOUT_COUNT && layouts[i] != l)
		i++;
	return i;
}

const struct dump_layout *dump_layout_find(const char *name)
{
	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++)
		if (strcmp(layouts[i]->name, name) == 0)
			return layouts[i];
	return NULL;
}

const struct dump_layout *dump_layout_unmarked(void)
{
	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++)
		if (!layouts[i]->claims)
			return layouts[i];
	return layouts[0];
}

const struct dump_layout *dump_layout_recognise(const struct dump_layout *forced, const int64_t *w, size_t S)
{
	if (forced)
		return forced;
	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++)
		if (layouts[i]->claims && layouts[i]->claims(w, S))
			return layouts[i];
	return dump_layout_unmarked();
}

const char *dump_layout_names(char *buf, size_t cap, const char *sep, bool (*has)(const struct dump_layout *l))
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++)
		if (!has || has(layouts[i])) {
			int n = snprintf(buf + len, cap - len, "%s%s", len ? sep : "", layouts[i]->name);
			if (n < 0 || (size_t)n >= cap - len)
				break;
			len += (size_t)n;
		}
	return buf;
}
