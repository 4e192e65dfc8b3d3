/* strip: removing exactly what apply inserted, found by its tags (edit.h),
 * line by line. Tags inside string or character literals are not tags: the
 * C++ tokenizer tells where the literals are. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_token.h"
#include "edit.h"
#include "token_search.h"
#include "xalloc.h"

struct lits {
	const struct cxx_token *v;
	size_t n;
};

/* The literals are sorted and do not overlap: the one that can hold `off`
 * is the last starting at or before it. */
static bool in_literal(const struct lits *l, uint32_t off)
{
	size_t i = token_search(l->v, l->n, sizeof(*l->v), off + 1);
	const struct cxx_token *t = i ? &l->v[i - 1] : NULL;

	return t && t->end > off && (t->kind == CXX_TOK_STRING || t->kind == CXX_TOK_CHAR || t->kind == CXX_TOK_HEADER);
}

static const char *find_in(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	for (size_t i = 0; i + k <= n; i++)
		if (s[i] == lit[0] && memcmp(s + i, lit, k) == 0)
			return s + i;
	return NULL;
}

static bool ends_with(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && memcmp(s + n - k, lit, k) == 0;
}

static bool starts_with(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && memcmp(s, lit, k) == 0;
}

/* A whole line apply wrote: the content before the tag is one of its forms. */
static bool own_line(const char *s, size_t n)
{
	size_t a = 0;

	while (a < n && (s[a] == ' ' || s[a] == '\t'))
		a++;
	s += a;
	n -= a;
	if (!ends_with(s, n, " " EDIT_TAG))
		return false;
	n -= strlen(" " EDIT_TAG);
	return (starts_with(s, n, "MoeTracing") && n > 0 && s[n - 1] == ';') || (n == 1 && s[0] == '}') ||
	       starts_with(s, n, "#include ") || (n == strlen("return " EDIT_HOIST_VAR ";") &&
						  starts_with(s, n, "return " EDIT_HOIST_VAR ";"));
}

/* A hand-written point alone on its line (strip --all): a statement
 * `MoeTracing(...);` or `MoeTracing<...>(...);` -- the name whole (not
 * MoeTracingRecord, MoeTracingKernelEnd, ...), then its call. */
static bool point_line(const char *s, size_t n)
{
	static const char name[] = "MoeTracing";
	size_t a = 0, e = n, k;
	const char *c;

	while (a < n && (s[a] == ' ' || s[a] == '\t'))
		a++;
	if (!starts_with(s + a, n - a, name))
		return false;
	k = a + strlen(name);
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (k < n && s[k] == '<') {
		int depth = 0;
		for (; k < n; k++) {
			depth += s[k] == '<' ? 1 : s[k] == '>' ? -1 : 0;
			if (depth == 0)
				break;
		}
		if (k == n)
			return false;
		k++;
		while (k < n && (s[k] == ' ' || s[k] == '\t'))
			k++;
	}
	if (k >= n || s[k] != '(')
		return false;
	c = find_in(s + a, n - a, "//");
	if (c)
		e = (size_t)(c - s);
	while (e > a && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
		e--;
	return e > k && s[e - 1] == ';';
}

/* The offset of the first byte of the line at ls that is not a blank. */
static size_t line_code(const char *data, size_t ls, size_t le)
{
	while (ls < le && (data[ls] == ' ' || data[ls] == '\t'))
		ls++;
	return ls;
}

/* The last line went, and it had no ending: the one before loses its own
 * (LF or CR LF), as the file had none at its end. */
static void drop_ending(char *out, size_t *o)
{
	if (*o > 0 && out[*o - 1] == '\n') {
		(*o)--;
		if (*o > 0 && out[*o - 1] == '\r')
			(*o)--;
	}
}

char *edit_strip(const char *data, size_t len, bool all, size_t *out_len, unsigned *removed)
{
	struct cxx_tokens toks;
	struct lits lits;
	char *out = xmalloc(len + 1), *line = xmalloc(len + 1);
	size_t o = 0;
	bool eat_indent = false;

	*removed = 0;
	memset(&toks, 0, sizeof(toks));
	cxx_tokenize(data, len, &toks);
	lits.v = toks.v;
	lits.n = toks.n;
	for (size_t ls = 0; ls < len || (ls == 0 && len == 0);) {
		const char *nl = memchr(data + ls, '\n', len - ls);
		size_t le = nl ? (size_t)(nl - data) : len, n = 0, ce;
		bool has_nl = nl != NULL, cr;
		const char *p;
		if (len == 0)
			break;
		/* the line without its inline fragments, the hoisted return restored */
		for (size_t i = ls; i < le;) {
			if (data[i] == '/' && starts_with(data + i, le - i, EDIT_INLINE_OPEN) && !in_literal(&lits, (uint32_t)i)) {
				const char *close = find_in(data + i, le - i, EDIT_INLINE_CLOSE);
				if (close) {
					if (find_in(data + i, (size_t)(close - (data + i)), "MoeTracing"))
						(*removed)++;
					i = (size_t)(close - data) + strlen(EDIT_INLINE_CLOSE);
					continue;
				}
			}
			if (data[i] == 'd' && starts_with(data + i, le - i, EDIT_HOIST) && !in_literal(&lits, (uint32_t)i)) {
				memcpy(line + n, "return", 6);
				n += 6;
				i += strlen(EDIT_HOIST);
				continue;
			}
			line[n++] = data[i++];
		}
		p = line;
		/* a CR LF line: the CR belongs to the ending, kept where the line is */
		cr = has_nl && n > 0 && line[n - 1] == '\r';
		if (cr)
			n--;
		ce = le - (cr ? 1 : 0);
		if (ends_with(line, n, EDIT_TAG_SPLIT) && !in_literal(&lits, (uint32_t)(ce - strlen(EDIT_TAG_SPLIT)))) {
			/* `{` added before a body that followed on this line */
			n -= strlen(EDIT_TAG_SPLIT);
			memcpy(out + o, p, n);
			o += n;
			eat_indent = true;
			ls = has_nl ? le + 1 : le;
			continue;
		}
		if (ends_with(line, n, EDIT_TAG) && !in_literal(&lits, (uint32_t)(ce - strlen(EDIT_TAG)))) {
			if (own_line(line, n)) {
				if (find_in(line, n, "MoeTracing"))
					(*removed)++;
				if (!has_nl)
					drop_ending(out, &o);
				ls = has_nl ? le + 1 : le;
				continue;
			}
			if (ends_with(line, n, " { " EDIT_TAG)) {
				size_t k = n - strlen(" { " EDIT_TAG), a = 0;
				while (a < k && (line[a] == ' ' || line[a] == '\t'))
					a++;
				if (a < k)
					n = k;
			}
		} else if (all && point_line(line, n) && !in_literal(&lits, (uint32_t)line_code(data, ls, le))) {
			(*removed)++;
			if (!has_nl)
				drop_ending(out, &o);
			ls = has_nl ? le + 1 : le;
			continue;
		}
		if (eat_indent) {
			while (n > 0 && (*p == ' ' || *p == '\t'))
				p++, n--;
			eat_indent = false;
		}
		memcpy(out + o, p, n);
		o += n;
		if (cr)
			out[o++] = '\r';
		if (has_nl)
			out[o++] = '\n';
		ls = has_nl ? le + 1 : le;
	}
	out[o] = '\0';
	*out_len = o;
	free(line);
	cxx_tokens_release(&toks);
	return out;
}
