/* Labels a person can read: a segment (a space-separated word of a label)
 * given twice is kept once ("op aiv aiv" -> "op aiv"), and a label longer
 * than PLAN_LABEL_MAX characters is shortened word by word (the words of a
 * segment are joined by '-'): first the filler words of a long segment
 * (and, of, get, per, v2, ...), from its end, then its last words, until it
 * fits. A trailing number that tells two points apart ("-2") is kept.
 * A phase longer than PLAN_PHASE_MAX is cut alike before it is used. */
#include <stdlib.h>
#include <string.h>

#include "plan_walk.h"
#include "xalloc.h"

/* Words that carry no meaning of their own in a name (kebab-case). */
static bool filler_word(const char *w, size_t n)
{
	static const char *const words[] = { "a",  "an",  "and", "or",   "the",  "of",   "for",    "to",
					     "from", "with", "by", "per", "pre", "get", "do",   "run",  "impl",
					     "func", "kernel", "op" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return true;
	/* a version suffix: v2, v10 */
	if (n >= 2 && w[0] == 'v') {
		for (size_t i = 1; i < n; i++)
			if (w[i] < '0' || w[i] > '9')
				return false;
		return true;
	}
	return false;
}

static bool all_digits(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (w[i] < '0' || w[i] > '9')
			return false;
	return n > 0;
}

/* Removes one word of segment `seg` (NUL-terminated, words joined by '-'):
 * the last filler word, else the last word (never the only one, nor a
 * trailing number). Returns false when no word can go. */
static bool drop_word(char *seg)
{
	size_t n = strlen(seg), nwords = 1, keep_last;
	size_t starts[64], lens[64], k = 0;

	for (size_t i = 0; i < n; i++)
		nwords += seg[i] == '-';
	if (nwords < 2 || nwords > 64)
		return false;
	for (size_t i = 0, s = 0; i <= n; i++) {
		if (i == n || seg[i] == '-') {
			starts[k] = s;
			lens[k++] = i - s;
			s = i + 1;
		}
	}
	keep_last = all_digits(seg + starts[k - 1], lens[k - 1]) ? 1 : 0;
	for (size_t j = k - keep_last; j-- > 0;) {
		if (filler_word(seg + starts[j], lens[j]) && k - 1 > keep_last) {
			size_t from = j == 0 ? 0 : starts[j] - 1, to = starts[j] + lens[j];
			if (j == 0)
				to++; /* and the '-' after it */
			memmove(seg + from, seg + to, n - to + 1);
			return true;
		}
	}
	if (k - keep_last < 2)
		return false;
	{
		/* the last word that is not the kept number */
		size_t j = k - 1 - keep_last, from = starts[j] - 1, to = starts[j] + lens[j];
		memmove(seg + from, seg + to, n - to + 1);
	}
	return true;
}

/* One step towards a shorter label of `nseg` segments, `over` characters
 * too long: a word off the longest segment that can lose one, the first
 * segment (the phase, which groups the labels) last of all; else the
 * longest segment cut. False when nothing can be shortened. */
static bool shorten(char **seg, size_t nseg, size_t over)
{
	size_t order[64], n = 0, cut = 0;

	for (size_t i = 1; i < nseg && n < 63; i++)
		order[n++] = i;
	/* the longest first; of equals, the later (the more specific name) */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strlen(seg[order[j]]) >= strlen(seg[order[j - 1]]); j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	if (nseg > 0)
		order[n++] = 0;
	for (size_t k = 0; k < n; k++)
		if (drop_word(seg[order[k]]))
			return true;
	for (size_t i = 1; i < nseg; i++)
		if (strlen(seg[i]) > strlen(seg[cut]))
			cut = i;
	if (nseg == 0 || strlen(seg[cut]) <= over)
		return false;
	seg[cut][strlen(seg[cut]) - over] = '\0';
	return true;
}

char *plan_phase_fit(const char *phase)
{
	char *s = xstrdup(phase);

	/* (a phase with blanks is the user's own words: kept) */
	while (strlen(s) > PLAN_PHASE_MAX && !strchr(s, ' ') && drop_word(s))
		;
	return s;
}

char *plan_label_fit(const char *label, size_t max)
{
	char *copy = xstrdup(label), **seg = NULL;
	size_t nseg = 0, cap = 0, total;
	char *out, *o;

	/* the segments, each once */
	for (char *s = strtok(copy, " "); s; s = strtok(NULL, " ")) {
		bool seen = false;
		for (size_t i = 0; i < nseg && !seen; i++)
			seen = strcmp(seg[i], s) == 0;
		if (seen)
			continue;
		XGROW(seg, cap, nseg + 1);
		seg[nseg++] = xstrdup(s);
	}
	for (;;) {
		total = nseg ? nseg - 1 : 0;
		for (size_t i = 0; i < nseg; i++)
			total += strlen(seg[i]);
		if (total <= max || !shorten(seg, nseg, total - max))
			break;
	}
	/* a segment shortened into one said before goes ("x hccl-allto aiv hccl-allto") */
	for (size_t i = 1; i < nseg; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(seg[i], seg[j]) == 0) {
				total -= strlen(seg[i]) + 1;
				free(seg[i]);
				memmove(seg + i, seg + i + 1, (nseg - i - 1) * sizeof(*seg));
				nseg--;
				i--;
				break;
			}
	out = o = xmalloc(total + 1);
	for (size_t i = 0; i < nseg; i++) {
		if (i)
			*o++ = ' ';
		o = stpcpy(o, seg[i]);
		free(seg[i]);
	}
	*o = '\0';
	free(seg);
	free(copy);
	return out;
}
