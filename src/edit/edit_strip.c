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

/* A point statement as apply writes it (point_code in edit_points.c). */
static bool is_point(const char *s, size_t n)
{
	return (starts_with(s, n, "MoeTracing(TRACE_POINT(\"") || starts_with(s, n, "MoeTracing<true>(TRACE_POINT(\"")) &&
	       ends_with(s, n, ");") && !memchr(s, '\n', n);
}

enum shape { NOT_OURS, POINT, OPENER, CLOSER, INCLUDE, RETURN };

/* What apply puts between the inline tags: ` {`, ` }`, or a point with a
 * blank on the side of the statement it goes before or after. */
static enum shape inline_shape(const char *c, size_t n)
{
	if (n == 2 && c[0] == ' ' && (c[1] == '{' || c[1] == '}'))
		return c[1] == '{' ? OPENER : CLOSER;
	if ((n > 1 && c[0] == ' ' && is_point(c + 1, n - 1)) || (n > 1 && c[n - 1] == ' ' && is_point(c, n - 1)))
		return POINT;
	return NOT_OURS;
}

/* A whole line apply wrote: the content before the tag is one of its forms
 * (a point, an added `}`, an added quoted #include, the hoisted return). */
static enum shape own_line(const char *s, size_t n)
{
	size_t a = 0;

	while (a < n && (s[a] == ' ' || s[a] == '\t'))
		a++;
	s += a;
	n -= a;
	if (!ends_with(s, n, " " EDIT_TAG))
		return NOT_OURS;
	n -= strlen(" " EDIT_TAG);
	if (is_point(s, n))
		return POINT;
	if (n == 1 && s[0] == '}')
		return CLOSER;
	if (starts_with(s, n, "#include \"") && n > strlen("#include \"") + 1 && s[n - 1] == '"' &&
	    !memchr(s + strlen("#include \""), '"', n - strlen("#include \"") - 1))
		return INCLUDE;
	if (n == strlen("return " EDIT_HOIST_VAR ";") && starts_with(s, n, "return " EDIT_HOIST_VAR ";"))
		return RETURN;
	return NOT_OURS;
}

/* The text a `{` of apply's follows at the end of a line: a control
 * statement's header, `if (...)`, `for (...)`, `case 1:`, `else`, `do`. */
static bool header_before(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n > 0 && (s[n - 1] == ')' || s[n - 1] == ':'))
		return true;
	for (int w = 0; w < 2; w++) {
		const char *word = w ? "do" : "else";
		size_t k = strlen(word);
		if (ends_with(s, n, word) && (n == k || !(isalnum((unsigned char)s[n - k - 1]) || s[n - k - 1] == '_')))
			return true;
	}
	return false;
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

struct finds {
	struct edit_foreign *v;       /* NULL: not wanted */
	size_t *n;
	uint32_t *open;               /* the offsets of apply's `{` not closed yet */
	size_t nopen, capopen;
};

static void found(struct finds *f, uint32_t off, uint32_t end, const char *why, bool broken)
{
	size_t at;

	if (!f->v)
		return;
	at = *f->n;
	/* a brace without its pair must be seen: it takes the last place */
	if (at >= EDIT_FOREIGN_MAX) {
		at = EDIT_FOREIGN_MAX - 1;
		if (f->v[at].broken || !broken)
			at = EDIT_FOREIGN_MAX;
	}
	if (at < EDIT_FOREIGN_MAX)
		f->v[at] = (struct edit_foreign){ off, end, why, broken };
	(*f->n)++;
}

static void opener(struct finds *f, uint32_t off)
{
	XGROW(f->open, f->capopen, f->nopen + 1);
	f->open[f->nopen++] = off;
}

static void closer(struct finds *f, uint32_t off, uint32_t end)
{
	if (f->nopen)
		f->nopen--;
	else
		found(f, off, end, "a `}` of apply's without the `{` it writes with it", true);
}

/* The hoisted returns: `decltype(auto) autotraceRet =` is apply's when a
 * line `return autotraceRet; // autotrace` follows it before the next one;
 * ok[i] for the i-th hoist, ret_ok for those lines (by their starts). */
struct hoists {
	uint32_t *at, *ret;
	bool *ok, *ret_ok;
	size_t n, nret;
};

static void hoists_find(const char *data, size_t len, const struct lits *lits, struct hoists *h)
{
	size_t cap = 0, capr = 0;

	memset(h, 0, sizeof(*h));
	for (size_t ls = 0; ls < len;) {
		const char *nl = memchr(data + ls, '\n', len - ls);
		size_t le = nl ? (size_t)(nl - data) : len, n = le - ls;
		const char *hit = find_in(data + ls, n, EDIT_HOIST);
		while (hit) {
			uint32_t off = (uint32_t)(hit - data);
			if (!in_literal(lits, off)) {
				XGROW(h->at, cap, h->n + 1);
				h->at[h->n++] = off;
			}
			hit = find_in(hit + 1, (size_t)(data + le - hit - 1), EDIT_HOIST);
		}
		if (n && data[le - 1] == '\r')
			n--;
		if (own_line(data + ls, n) == RETURN) {
			XGROW(h->ret, capr, h->nret + 1);
			h->ret[h->nret++] = (uint32_t)ls;
		}
		ls = nl ? le + 1 : le;
	}
	h->ok = xcalloc(h->n + 1, sizeof(*h->ok));
	h->ret_ok = xcalloc(h->nret + 1, sizeof(*h->ret_ok));
	for (size_t i = 0, j = 0; i < h->n; i++) {
		while (j < h->nret && h->ret[j] < h->at[i])
			j++;
		if (j < h->nret && (i + 1 == h->n || h->ret[j] < h->at[i + 1]))
			h->ok[i] = h->ret_ok[j++] = true;
	}
}

/* Where x is in v (sorted: found in file order), or n. */
static size_t sorted_find(const uint32_t *v, size_t n, uint32_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == x ? lo : n;
}

static bool hoist_ok(const struct hoists *h, uint32_t off)
{
	size_t i = sorted_find(h->at, h->n, off);

	return i < h->n && h->ok[i];
}

static bool return_ok(const struct hoists *h, uint32_t ls)
{
	size_t i = sorted_find(h->ret, h->nret, ls);

	return i < h->nret && h->ret_ok[i];
}

static void hoists_free(struct hoists *h)
{
	free(h->at);
	free(h->ret);
	free(h->ok);
	free(h->ret_ok);
}

char *edit_strip(const char *data, size_t len, bool all, size_t *out_len, unsigned *removed,
		 struct edit_foreign *foreign, size_t *nforeign)
{
	struct cxx_tokens toks;
	struct lits lits;
	struct hoists hs;
	size_t nf = 0;
	struct finds fs = { foreign, nforeign ? nforeign : &nf, NULL, 0, 0 };
	char *out = xmalloc(len + 1), *line = xmalloc(len + 1);
	size_t o = 0;
	bool eat_indent = false;

	*removed = 0;
	*fs.n = 0;
	memset(&toks, 0, sizeof(toks));
	cxx_tokenize(data, len, &toks);
	lits.v = toks.v;
	lits.n = toks.n;
	hoists_find(data, len, &lits, &hs);
	for (size_t ls = 0; ls < len || (ls == 0 && len == 0);) {
		const char *nl = memchr(data + ls, '\n', len - ls);
		size_t le = nl ? (size_t)(nl - data) : len, n = 0, ce;
		bool has_nl = nl != NULL, cr;
		const char *p;
		enum shape sh;
		if (len == 0)
			break;
		/* the line without its inline fragments, the hoisted return restored */
		for (size_t i = ls; i < le;) {
			if (data[i] == '/' && starts_with(data + i, le - i, EDIT_INLINE_OPEN) && !in_literal(&lits, (uint32_t)i)) {
				const char *close = find_in(data + i, le - i, EDIT_INLINE_CLOSE);
				const char *c = data + i + strlen(EDIT_INLINE_OPEN);
				enum shape k = close ? inline_shape(c, (size_t)(close - c)) : NOT_OURS;
				if (k != NOT_OURS) {
					size_t e = (size_t)(close - data) + strlen(EDIT_INLINE_CLOSE);
					if (k == POINT)
						(*removed)++;
					else if (k == OPENER)
						opener(&fs, (uint32_t)i);
					else
						closer(&fs, (uint32_t)i, (uint32_t)e);
					i = e;
					continue;
				}
				found(&fs, (uint32_t)i, (uint32_t)(close ? (size_t)(close - data) + strlen(EDIT_INLINE_CLOSE) : i + strlen(EDIT_INLINE_OPEN)),
				      close ? "what these tags hold is not what apply writes between them (a point, `{`, `}`)"
					    : "a tag apply writes with its closing /*:autotrace*/ on the same line",
				      false);
			}
			if (data[i] == 'd' && starts_with(data + i, le - i, EDIT_HOIST) && !in_literal(&lits, (uint32_t)i)) {
				if (hoist_ok(&hs, (uint32_t)i)) {
					memcpy(line + n, "return", 6);
					n += 6;
					i += strlen(EDIT_HOIST);
					continue;
				}
				found(&fs, (uint32_t)i, (uint32_t)(i + strlen(EDIT_HOIST)),
				      "apply writes this in place of `return` only with a line `return autotraceRet; // autotrace` after it",
				      false);
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
			if (header_before(line, n - strlen(EDIT_TAG_SPLIT))) {
				/* `{` added before a body that followed on this line */
				opener(&fs, (uint32_t)(ce - strlen(EDIT_TAG_SPLIT)));
				n -= strlen(EDIT_TAG_SPLIT);
				memcpy(out + o, p, n);
				o += n;
				eat_indent = true;
				ls = has_nl ? le + 1 : le;
				continue;
			}
			found(&fs, (uint32_t)(ce - strlen(EDIT_TAG_SPLIT)), (uint32_t)ce,
			      "apply writes this tag only after the header of an if, for, while, case, else or do", false);
		} else if (ends_with(line, n, EDIT_TAG) && !in_literal(&lits, (uint32_t)(ce - strlen(EDIT_TAG)))) {
			sh = own_line(line, n);
			if (sh == RETURN && !return_ok(&hs, (uint32_t)ls))
				sh = NOT_OURS;
			if (sh != NOT_OURS) {
				if (sh == POINT)
					(*removed)++;
				else if (sh == CLOSER)
					closer(&fs, (uint32_t)line_code(data, ls, le), (uint32_t)ce);
				if (!has_nl)
					drop_ending(out, &o);
				ls = has_nl ? le + 1 : le;
				continue;
			}
			if (ends_with(line, n, " { " EDIT_TAG) && header_before(line, n - strlen(" { " EDIT_TAG))) {
				size_t k = n - strlen(" { " EDIT_TAG), a = 0;
				while (a < k && (line[a] == ' ' || line[a] == '\t'))
					a++;
				if (a < k) {
					opener(&fs, (uint32_t)(ce - strlen(" { " EDIT_TAG)));
					n = k;
				}
			} else {
				found(&fs, (uint32_t)(ce - strlen(EDIT_TAG)), (uint32_t)ce,
				      "this line ends in apply's tag but is none of the lines apply writes", false);
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
	for (size_t i = 0; i < fs.nopen; i++)
		found(&fs, fs.open[i], fs.open[i] + 1, "a `{` of apply's without the `}` it writes with it", true);
	out[o] = '\0';
	*out_len = o;
	free(fs.open);
	free(line);
	hoists_free(&hs);
	cxx_tokens_release(&toks);
	return out;
}
