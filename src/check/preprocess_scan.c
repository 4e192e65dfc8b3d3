/* The scanner of `autotrace preprocess` (see preprocess_scan.h): code versus
 * comments, literals and # lines, at memory speed. A buffer that holds
 * neither "TRACE_" nor "MoeTracing" has nothing to find: memmem says so
 * first (most files of a tree). Otherwise a table marks the bytes that can
 * start something of interest ('/', quotes, '#', 'T' of TRACE_*, 'M' of
 * MoeTracing, 'R' of raw strings, NUL); the loop jumps over all others, and
 * comments are crossed with memchr. Line numbers are counted only up to
 * each point found, also with memchr. It is a second C++ lexer beside
 * cxx_token.c on purpose, for speed (see preprocess_scan.h): tests/lexers.test
 * shows that both find the same trace points. */
#define _GNU_SOURCE /* memmem(3): glibc's is far faster than a loop of memchr */
#include <string.h>

#include "preprocess_scan.h"
#include "string_literal.h"
#include "xalloc.h"

enum { K_NONE = 0, K_SLASH, K_DQUOTE, K_SQUOTE, K_T, K_M, K_R, K_HASH, K_NUL };

static const unsigned char kind_of[256] = {
	[0] = K_NUL, ['/'] = K_SLASH, ['"'] = K_DQUOTE, ['\''] = K_SQUOTE,
	['T'] = K_T, ['M'] = K_M, ['R'] = K_R, ['#'] = K_HASH,
};

static const unsigned char ident[256] = {
	['_'] = 1, ['$'] = 1,
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1,
	['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,
	['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1,
	['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1,
	['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
};

#define UC(c) ((unsigned char)(c))

/* The end (its newline) of the line starting at p, lines continued with a
 * backslash followed: the end of a // comment or of a # directive. */
static const char *line_end(const char *p, const char *end)
{
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *b;
		if (!nl)
			return end;
		b = nl - 1;
		if (b >= p && *b == '\r')
			b--;
		while (b > p && (*b == ' ' || *b == '\t'))
			b--; /* blanks after the backslash still splice, as in GCC and clang */
		if (b < p || *b != '\\')
			return nl;
		p = nl + 1; /* a continued line */
	}
}

static const char *skip_block_comment(const char *p, const char *end)
{
	for (;;) {
		const char *star = memchr(p, '*', (size_t)(end - p));
		if (!star || star + 1 >= end)
			return end;
		if (star[1] == '/')
			return star + 2;
		p = star + 1;
	}
}

/* After the opening quote `q` of a string or character literal. Literals end
 * at their quote, or unterminated at the end of the line; a line splice
 * continues them (phase 2 comes first: a backslash escapes the character
 * after the splices that follow it). */
static const char *skip_quoted(const char *p, const char *end, char q)
{
	for (; p < end; p++) {
		size_t sp;
		if (*p == q)
			return p + 1;
		if (*p == '\\') {
			if ((sp = string_literal_splice(p, end)) != 0) {
				p += sp - 1;
				continue;
			}
			for (p++; (sp = string_literal_splice(p, end)) != 0;)
				p += sp;
			if (p >= end || *p == '\n')
				return p < end ? p : end; /* a newline is no escape: unterminated */
			continue;
		}
		if (*p == '\n')
			return p;
	}
	return end;
}

/* `'` inside a pp-number is a digit separator (C++14: 1'000'000). */
static bool digit_separator(const char *data, const char *p)
{
	const char *q = p;

	while (q > data && (ident[UC(q[-1])] || q[-1] == '.' || q[-1] == '\''))
		q--;
	return q < p && *q >= '0' && *q <= '9';
}

/* `R` at p starts a raw string when what precedes it in the identifier is
 * nothing, L, u, U or u8. */
static bool raw_prefix(const char *data, const char *p)
{
	const char *b = p;

	while (b > data && ident[UC(b[-1])])
		b--;
	switch (p - b) {
	case 0:
		return true;
	case 1:
		return *b == 'L' || *b == 'u' || *b == 'U';
	case 2:
		return b[0] == 'u' && b[1] == '8';
	default:
		return false;
	}
}

/* After R": the delimiter, '(', the text, ')' delimiter '"'. */
static const char *skip_raw(const char *p, const char *end)
{
	char close[20];
	size_t n = 0;
	const char *q = p;

	while (q < end && *q != '(' && n < 16) {
		if (*q == ' ' || *q == ')' || *q == '\\' || *q == '\n' || *q == '\t')
			return skip_quoted(p, end, '"'); /* not a raw string after all */
		q++;
		n++;
	}
	if (q >= end || *q != '(')
		return skip_quoted(p, end, '"');
	close[0] = ')';
	memcpy(close + 1, p, n);
	close[n + 1] = '"';
	for (q++; (q = memchr(q, ')', (size_t)(end - q))) != NULL; q++)
		if ((size_t)(end - q) >= n + 2 && memcmp(q, close, n + 2) == 0)
			return q + n + 2;
	return end;
}

static bool at_line_start(const char *data, const char *p)
{
	while (p > data && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	return p == data || p[-1] == '\n';
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\\'))
		p++;
	return p;
}

/* A plain string literal at p: returns after its closing quote, or NULL. */
static const char *plain_string(const char *p, const char *end)
{
	const char *q;

	if (p >= end || *p != '"')
		return NULL;
	q = skip_quoted(p + 1, end, '"');
	return q > p + 1 && q[-1] == '"' && q - p >= 2 ? q : NULL;
}

struct line_counter {
	const char *pos;       /* counted up to here */
	const char *line_start;
	uint32_t line;
};

static void count_to(struct line_counter *lc, const char *to)
{
	const char *nl;

	while ((nl = memchr(lc->pos, '\n', (size_t)(to - lc->pos))) != NULL) {
		lc->line++;
		lc->line_start = nl + 1;
		lc->pos = nl + 1;
	}
	lc->pos = to;
}

/* TRACE_POINT at p (the name checked): records a site when '(' follows;
 * returns where scanning goes on. */
static const char *site_at(const char *data, const char *p, const char *end, bool directive, struct line_counter *lc,
			   struct pp_scan *out)
{
	const char *q = skip_space(p + 11, end), *l0, *l1, *e0, *e1;
	struct pp_site *s;

	if (q >= end || *q != '(')
		return p + 11;
	XGROW(out->sites, out->cap_sites, out->nsites + 1);
	s = &out->sites[out->nsites++];
	memset(s, 0, sizeof(*s));
	count_to(lc, p);
	s->start = (uint32_t)(p - data);
	s->end = s->start + 11;
	s->line = lc->line;
	s->col = (uint32_t)(p - lc->line_start) + 1;
	s->directive = directive;
	l0 = skip_space(q + 1, end);
	if (!(l1 = plain_string(l0, end)))
		return p + 11;
	q = skip_space(l1, end);
	if (q >= end || *q != ',')
		return p + 11;
	e0 = skip_space(q + 1, end);
	if (!(e1 = plain_string(e0, end)))
		return p + 11;
	q = skip_space(e1, end);
	if (q >= end || *q != ')')
		return p + 11;
	s->end = (uint32_t)(q + 1 - data);
	s->label = xmalloc((size_t)(l1 - l0 - 1));
	s->label_len = string_literal_unescape(l0 + 1, l1 - 1, s->label);
	s->label_start = (uint32_t)(l0 - data);
	s->label_end = (uint32_t)(l1 - data);
	s->event_start = (uint32_t)(e0 - data);
	s->event_end = (uint32_t)(e1 - data);
	if (e1 - e0 == 3 && (e0[1] == 'B' || e0[1] == 'E'))
		s->event = e0[1];
	return q + 1;
}

static void add_done(struct pp_scan *out, const char *data, const char *at, const char *to, bool stamp,
		     struct line_counter *lc)
{
	struct pp_done *d;

	XGROW(out->done, out->cap_done, out->ndone + 1);
	d = &out->done[out->ndone++];
	count_to(lc, at);
	d->start = (uint32_t)(at - data);
	d->end = (uint32_t)(to - data);
	d->line = lc->line;
	d->col = (uint32_t)(at - lc->line_start) + 1;
	d->stamp = stamp;
}

/* MoeTracing at p (the name checked): MoeTracing[<...>](<number> , or ) is
 * a point id written by an earlier run (or by hand: it would collide all
 * the same). Returns where scanning goes on. */
static const char *numeric_at(const char *data, const char *p, const char *end, struct line_counter *lc,
			      struct pp_scan *out)
{
	const char *q = skip_space(p + 10, end), *n0;

	if (q < end && *q == '<') {
		const char *gt = memchr(q, '>', (size_t)(end - q) < 64 ? (size_t)(end - q) : 64);
		if (!gt)
			return p + 10;
		q = skip_space(gt + 1, end);
	}
	if (q >= end || *q != '(')
		return p + 10;
	n0 = q = skip_space(q + 1, end);
	if (q >= end || *q < '0' || *q > '9')
		return p + 10;
	while (q < end && (ident[UC(*q)] || *q == '\''))
		q++;
	if (skip_space(q, end) < end && (*skip_space(q, end) == ')' || *skip_space(q, end) == ','))
		add_done(out, data, n0, q, false, lc);
	return q;
}

/* A block comment at p that is the stamp tag right after a literal
 * 0x<16 hex>ULL, as an earlier run writes it. */
static void stamp_tag_at(const char *data, const char *p, const char *end, struct line_counter *lc,
			 struct pp_scan *out)
{
	size_t tl = strlen(PP_STAMP_TAG);
	const char *lit = p;

	if ((size_t)(end - p) < tl || memcmp(p, PP_STAMP_TAG, tl) != 0)
		return;
	while (lit > data && lit[-1] == ' ')
		lit--;
	if (lit - data < 21 || memcmp(lit - 3, "ULL", 3) != 0 || lit[-21] != '0' || (lit[-20] != 'x' && lit[-20] != 'X'))
		return;
	for (const char *h = lit - 19; h < lit - 3; h++)
		if (!((*h >= '0' && *h <= '9') || (*h >= 'a' && *h <= 'f') || (*h >= 'A' && *h <= 'F')))
			return;
	add_done(out, data, lit - 21, p + tl, true, lc);
}

void pp_scan_buffer(const char *data, size_t len, struct pp_scan *out)
{
	const char *p = data, *end = data + len, *dir_end = data;
	struct line_counter lc = { data, data, 1 };

	pp_scan_release(out);
	if (!memmem(data, len, "TRACE_", 6) && !memmem(data, len, "MoeTracing", 10))
		return;
	for (;;) {
		while (!kind_of[UC(*p)])
			p++;
		if (p >= end)
			break;
		switch (kind_of[UC(*p)]) {
		case K_SLASH:
			if (p[1] == '/') {
				p = line_end(p + 2, end);
			} else if (p[1] == '*') {
				if (p[2] == ' ' && p[3] == 'T')
					stamp_tag_at(data, p, end, &lc, out);
				p = skip_block_comment(p + 2, end);
			} else {
				p++;
			}
			break;
		case K_DQUOTE:
			p = skip_quoted(p + 1, end, '"');
			break;
		case K_SQUOTE:
			p = digit_separator(data, p) ? p + 1 : skip_quoted(p + 1, end, '\'');
			break;
		case K_HASH:
			if (p >= dir_end && at_line_start(data, p))
				dir_end = line_end(p, end);
			p++;
			break;
		case K_R:
			if (p[1] == '"' && raw_prefix(data, p))
				p = skip_raw(p + 2, end);
			else
				p++;
			break;
		case K_T:
			if (p > data && ident[UC(p[-1])]) {
				p++;
			} else if (strncmp(p, "TRACE_POINT", 11) == 0 && !ident[UC(p[11])]) {
				p = site_at(data, p, end, p < dir_end, &lc, out);
			} else if (strncmp(p, PP_STAMP_NAME, 17) == 0 && !ident[UC(p[17])]) {
				if (p >= dir_end) {
					XGROW(out->stamps, out->cap_stamps, out->nstamps + 1);
					out->stamps[out->nstamps++] = (uint32_t)(p - data);
				}
				p += 17;
			} else {
				p++;
			}
			break;
		case K_M:
			if (p > data && ident[UC(p[-1])])
				p++;
			else if (strncmp(p, "MoeTracing", 10) == 0 && !ident[UC(p[10])])
				p = numeric_at(data, p, end, &lc, out);
			else
				p++;
			break;
		default: /* a NUL byte inside the buffer */
			p++;
			break;
		}
	}
}

void pp_scan_release(struct pp_scan *s)
{
	for (size_t i = 0; i < s->nsites; i++)
		free(s->sites[i].label);
	free(s->sites);
	free(s->stamps);
	free(s->done);
	memset(s, 0, sizeof(*s));
}
