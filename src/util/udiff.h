/* Unified diffs between two versions of a text, for --dry-run output. */
#ifndef AUTOTRACE_UDIFF_H
#define AUTOTRACE_UDIFF_H

#include <stddef.h>
#include <stdio.h>

/* Prints `diff -u` style output (labels `a/PATH`, `b/PATH`, 3 lines of context)
 * turning `old` into `new`. Prints nothing when they are equal. Returns the
 * number of changed lines. */
size_t udiff_print(FILE *out, const char *path, const char *old, size_t old_len, const char *new_text,
		   size_t new_len);

#endif
