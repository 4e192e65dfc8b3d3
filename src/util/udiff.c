/* Line diff by Myers' O(ND) algorithm, printed as unified hunks. */
#include "udiff.h"

#include <stdint.h>
#include <string.h>

#include "index_table.h"
#include "xalloc.h"

struct lines {
	const char **s;
	size_t *n;    /* length including the newline, if any */
	uint64_t *h;
	size_t count;
};

static void split(const char *text, size_t len, struct lines *l)
{
	size_t cap = 16;

	l->s = xmalloc(cap * sizeof(*l->s));
	l->n = xmalloc(cap * sizeof(*l->n));
	l->h = xmalloc(cap * sizeof(*l->h));
	l->count = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) + 1 : len - i;
		if (l->count == cap) {
			cap *= 2;
			l->s = xrealloc(l->s, cap * sizeof(*l->s));
			l->n = xrealloc(l->n, cap * sizeof(*l->n));
			l->h = xrealloc(l->h, cap * sizeof(*l->h));
		}
		l->s[l->count] = text + i;
		l->n[l->count] = n;
		l->h[l->count] = index_hash_bytes(text + i, n);
		l->count++;
		i += n;
	}
}

static void release(struct lines *l)
{
	free(l->s);
	free(l->n);
	free(l->h);
}

static int same(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	return a->h[i] == b->h[j] && a->n[i] == b->n[j] && memcmp(a->s[i], b->s[j], a->n[i]) == 0;
}

/* Edit script entry: ' ' keep, '-' delete from a, '+' insert from b. */
struct op {
	char kind;
	size_t line; /* index in a (keep, delete) or b (insert) */
};

/* Myers' greedy algorithm with a saved V per D, then backtracking. */
static struct op *diff_ops(const struct lines *a, const struct lines *b, size_t *nops)
{
	long n = (long)a->count, m = (long)b->count, max = n + m, off = max + 1;
	long *v = xcalloc((size_t)(2 * max + 3), sizeof(*v));
	long **trace = NULL;
	long d, found = -1;
	struct op *ops;
	size_t k_ops = 0, cap;

	for (d = 0; d <= max; d++) {
		trace = xrealloc(trace, (size_t)(d + 1) * sizeof(*trace));
		trace[d] = xmalloc((size_t)(2 * max + 3) * sizeof(long));
		memcpy(trace[d], v, (size_t)(2 * max + 3) * sizeof(long));
		for (long k = -d; k <= d; k += 2) {
			long x, y;
			if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
				x = v[off + k + 1];
			else
				x = v[off + k - 1] + 1;
			y = x - k;
			while (x < n && y < m && same(a, (size_t)x, b, (size_t)y)) {
				x++;
				y++;
			}
			v[off + k] = x;
			if (x >= n && y >= m) {
				found = d;
				break;
			}
		}
		if (found >= 0)
			break;
	}
	cap = (size_t)(n + m + 1);
	ops = xmalloc(cap * sizeof(*ops));
	{
		long x = n, y = m;
		for (d = found; d >= 0; d--) {
			long *vd = trace[d];
			long k = x - y, pk, px, py;
			if (d == 0) {
				while (x > 0 && y > 0) {
					x--;
					y--;
					ops[k_ops].kind = ' ';
					ops[k_ops++].line = (size_t)x;
				}
				break;
			}
			if (k == -d || (k != d && vd[off + k - 1] < vd[off + k + 1]))
				pk = k + 1;
			else
				pk = k - 1;
			px = vd[off + pk];
			py = px - pk;
			while (x > px && y > py) {
				x--;
				y--;
				ops[k_ops].kind = ' ';
				ops[k_ops++].line = (size_t)x;
			}
			if (pk == k + 1) {
				y--;
				ops[k_ops].kind = '+';
				ops[k_ops++].line = (size_t)y;
			} else {
				x--;
				ops[k_ops].kind = '-';
				ops[k_ops++].line = (size_t)x;
			}
		}
	}
	for (long i = 0; i <= found; i++)
		free(trace[i]);
	free(trace);
	free(v);
	/* reverse into forward order */
	for (size_t i = 0; i < k_ops / 2; i++) {
		struct op t = ops[i];
		ops[i] = ops[k_ops - 1 - i];
		ops[k_ops - 1 - i] = t;
	}
	*nops = k_ops;
	return ops;
}

static void print_line(FILE *out, char kind, const char *s, size_t n)
{
	fputc(kind, out);
	fwrite(s, 1, n, out);
	if (n == 0 || s[n - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

size_t udiff_print(FILE *out, const char *path, const char *old, size_t old_len, const char *new_text,
		   size_t new_len)
{
	enum { CONTEXT = 3 };
	struct lines a, b;
	struct op *ops;
	size_t nops, changed = 0, i = 0;
	int header = 0;

	split(old, old_len, &a);
	split(new_text, new_len, &b);
	ops = diff_ops(&a, &b, &nops);
	while (i < nops) {
		size_t start, end, last_change, ai = 0, bi = 0, acount = 0, bcount = 0;
		if (ops[i].kind == ' ') {
			i++;
			continue;
		}
		/* a hunk: back up CONTEXT keeps, extend while changes are within 2*CONTEXT */
		start = i >= CONTEXT ? i - CONTEXT : 0;
		for (size_t k = start; k < i; k++)
			if (ops[k].kind != ' ')
				start = k + 1;
		last_change = i;
		end = i;
		while (end < nops) {
			if (ops[end].kind != ' ')
				last_change = end;
			else if (end - last_change > 2 * CONTEXT)
				break;
			end++;
		}
		end = last_change + 1 + CONTEXT < nops ? last_change + 1 + CONTEXT : nops;
		/* line numbers of the hunk start */
		for (size_t k = 0; k < start; k++) {
			if (ops[k].kind != '+')
				ai++;
			if (ops[k].kind != '-')
				bi++;
		}
		for (size_t k = start; k < end; k++) {
			if (ops[k].kind != '+')
				acount++;
			if (ops[k].kind != '-')
				bcount++;
		}
		if (!header) {
			fprintf(out, "--- a/%s\n+++ b/%s\n", path, path);
			header = 1;
		}
		fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", acount ? ai + 1 : ai, acount, bcount ? bi + 1 : bi, bcount);
		for (size_t k = start; k < end; k++) {
			if (ops[k].kind == '+') {
				print_line(out, '+', b.s[ops[k].line], b.n[ops[k].line]);
				changed++;
			} else if (ops[k].kind == '-') {
				print_line(out, '-', a.s[ops[k].line], a.n[ops[k].line]);
				changed++;
			} else {
				print_line(out, ' ', a.s[ops[k].line], a.n[ops[k].line]);
			}
		}
		i = end;
	}
	free(ops);
	release(&a);
	release(&b);
	return changed;
}
