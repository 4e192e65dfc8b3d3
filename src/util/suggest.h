/* "Did you mean" suggestions: the closest name by edit distance. */
#ifndef AUTOTRACE_SUGGEST_H
#define AUTOTRACE_SUGGEST_H

#include <stddef.h>

/* Damerau-Levenshtein distance (adjacent transpositions count as one edit). */
size_t suggest_distance(const char *a, const char *b);

/* The candidate closest to `word`, or NULL when none is close enough (at most
 * one edit per three characters of `word`, and at least one). */
const char *suggest_closest(const char *word, const char *const *candidates, size_t n);

/* Every candidate at the smallest distance within the same limit (ties), at
 * most `max`, into `out`; returns how many. */
size_t suggest_ties(const char *word, const char *const *candidates, size_t n, const char **out, size_t max);

#endif
