/* A set of strings as a plain array (char **v, size_t n), in the order they
 * were added; the array and its strings are the caller's (path_glob_free
 * releases both). For the small name sets of the project readers. */
#ifndef AUTOTRACE_STRSET_H
#define AUTOTRACE_STRSET_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "xalloc.h"

static inline bool strset_has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* Adds a copy of `s`; true when it was not there. */
static inline bool strset_add(char ***v, size_t *n, const char *s)
{
	if (strset_has(*v, *n, s))
		return false;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
	return true;
}

#endif
