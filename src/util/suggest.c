/* Edit distance and closest-match suggestions for misspelt names. */
#include "suggest.h"

#include <string.h>
#include <strings.h>

#include "xalloc.h"

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t w = lb + 1;
	size_t *d = xmalloc((la + 1) * w * sizeof(*d));
	size_t r;

	for (size_t i = 0; i <= la; i++)
		d[i * w] = i;
	for (size_t j = 0; j <= lb; j++)
		d[j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = min3(d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1,
					d[(i - 1) * w + j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[(i - 2) * w + j - 2] + 1 < v)
				v = d[(i - 2) * w + j - 2] + 1;
			d[i * w + j] = v;
		}
	}
	r = d[la * w + lb];
	free(d);
	return r;
}

size_t suggest_ties(const char *word, const char *const *candidates, size_t n, const char **out, size_t max)
{
	const char *best = suggest_closest(word, candidates, n);
	size_t d, k = 0;

	if (!best || max == 0)
		return 0;
	if (strcasecmp(word, best) == 0) {
		out[0] = best;
		return 1;
	}
	d = suggest_distance(word, best);
	for (size_t i = 0; i < n && k < max; i++)
		if (suggest_distance(word, candidates[i]) == d)
			out[k++] = candidates[i];
	return k;
}

const char *suggest_closest(const char *word, const char *const *candidates, size_t n)
{
	size_t limit = strlen(word) / 3;
	const char *best = NULL;
	size_t best_d = (size_t)-1;

	if (limit < 1)
		limit = 1;
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(word, candidates[i]) == 0)
			return candidates[i];
	for (size_t i = 0; i < n; i++) {
		size_t dist = suggest_distance(word, candidates[i]);
		if (dist < best_d) {
			best_d = dist;
			best = candidates[i];
		}
	}
	return best_d <= limit ? best : NULL;
}
