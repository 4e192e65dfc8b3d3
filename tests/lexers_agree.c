/* Differential test of the two C++ lexers: the tokenizer of the source
 * scanner (cxx_token.c) and the fast scanner of `autotrace preprocess`
 * (preprocess_scan.c) are kept two for speed, so this program shows that they
 * find the same trace points in the files named on stdin (one path a line):
 * the same TRACE_POINT( sites at the same offset, line and column, in a #
 * directive or not, with the same label and event literals (their source
 * bytes) or the same lack of them, ending at the same ')'.
 *
 * Prints each disagreement as FILE:LINE:COL: what, then one summary line;
 * exit status 0 when the lexers agree on every file, 1 when they do not, 2
 * when a file cannot be read. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_token.h"
#include "preprocess.h"
#include "xalloc.h"

/* One site, as either lexer sees it. */
struct site {
	uint32_t start, end, line, col;
	bool directive;
	bool literals;                   /* label and event are plain string literals */
	uint32_t label_start, label_end; /* the label literal, quotes included */
	uint32_t event_start, event_end;
};

struct sites {
	struct site *v;
	size_t n, cap;
};

static struct site *sites_add(struct sites *s)
{
	XGROW(s->v, s->cap, s->n + 1);
	memset(&s->v[s->n], 0, sizeof(s->v[0]));
	return &s->v[s->n++];
}

static uint32_t column_of(const char *data, uint32_t off)
{
	uint32_t b = off;

	while (b > 0 && data[b - 1] != '\n')
		b--;
	return off - b + 1;
}

static bool plain_string(const char *data, const struct cxx_token *t)
{
	return t->kind == CXX_TOK_STRING && data[t->start] == '"' && !(t->flags & (CXX_TF_UNTERM | CXX_TF_RAW)) &&
	       t->end - t->start >= 2;
}

static void from_pp(const struct pp_scan *sc, struct sites *out)
{
	for (size_t i = 0; i < sc->nsites; i++) {
		const struct pp_site *p = &sc->sites[i];
		struct site *s = sites_add(out);

		s->start = p->start;
		s->end = p->end;
		s->line = p->line;
		s->col = p->col;
		s->directive = p->directive;
		s->literals = p->label != NULL;
		if (s->literals) {
			s->label_start = p->label_start;
			s->label_end = p->label_end;
			s->event_start = p->event_start;
			s->event_end = p->event_end;
		}
	}
}

/* TRACE_POINT followed by '(' in the token stream: a site; with
 * "label" , "event" ) after it, a well-formed one. */
static void from_tokens(const char *data, const struct cxx_tokens *tk, struct sites *out)
{
	bool in_pp = false;

	for (size_t i = 0; i < tk->n; i++) {
		const struct cxx_token *t = &tk->v[i], *a;
		struct site *s;

		if (t->kind == CXX_TOK_PP_BEGIN)
			in_pp = true;
		else if (t->kind == CXX_TOK_PP_END)
			in_pp = false;
		if (t->kind != CXX_TOK_IDENT || t->end - t->start != 11 || memcmp(data + t->start, "TRACE_POINT", 11) != 0 ||
		    !cxx_tok_punct(&tk->v[i + 1], CXX_P_LPAREN))
			continue;
		s = sites_add(out);
		s->start = t->start;
		s->end = t->end;
		s->line = t->line;
		s->col = column_of(data, t->start);
		s->directive = in_pp;
		a = &tk->v[i + 2];
		/* v[n] is the EOF token: each test below stops at it */
		if (!plain_string(data, &a[0]) || !cxx_tok_punct(&a[1], CXX_P_COMMA) || !plain_string(data, &a[2]) ||
		    !cxx_tok_punct(&a[3], CXX_P_RPAREN))
			continue;
		s->literals = true;
		s->end = a[3].end;
		s->label_start = a[0].start;
		s->label_end = a[0].end;
		s->event_start = a[2].start;
		s->event_end = a[2].end;
	}
}

static void say(const char *path, const char *data, const struct site *s, const char *what)
{
	printf("%s:%u:%u: %s", path, s->line, s->col, what);
	if (s->literals)
		printf(" (label %.*s, event %.*s)", (int)(s->label_end - s->label_start), data + s->label_start,
		       (int)(s->event_end - s->event_start), data + s->event_start);
	putchar('\n');
}

/* Compares the two lists (both in file order); returns the disagreements. */
static unsigned compare(const char *path, const char *data, const struct sites *pp, const struct sites *tk)
{
	size_t i = 0, j = 0;
	unsigned bad = 0;

	while (i < pp->n || j < tk->n) {
		const struct site *a = i < pp->n ? &pp->v[i] : NULL, *b = j < tk->n ? &tk->v[j] : NULL;

		if (a && (!b || a->start < b->start)) {
			say(path, data, a, "only the preprocess scanner finds this TRACE_POINT");
			i++, bad++;
		} else if (b && (!a || b->start < a->start)) {
			say(path, data, b, "only the C++ tokenizer finds this TRACE_POINT");
			j++, bad++;
		} else {
			if (memcmp(a, b, sizeof(*a)) != 0) {
				say(path, data, a, "the preprocess scanner reads this TRACE_POINT");
				say(path, data, b, "the C++ tokenizer reads it differently");
				printf("    end %u / %u, line %u / %u, directive %d / %d, literals %d / %d\n", a->end, b->end,
				       a->line, b->line, a->directive, b->directive, a->literals, b->literals);
				bad++;
			}
			i++, j++;
		}
	}
	return bad;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		XGROW(buf, cap, n + 65536 + 1);
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	} else {
		buf[n] = '\0';
		*len = n;
	}
	fclose(f);
	return buf;
}

int main(void)
{
	char path[4096];
	unsigned long files = 0, points = 0, directive = 0, malformed = 0, bad = 0;
	struct pp_scan sc = { 0 };
	struct cxx_tokens tk = { 0 };
	struct sites a = { 0 }, b = { 0 };
	int status = 0;

	while (fgets(path, sizeof(path), stdin)) {
		size_t len;
		char *data;

		path[strcspn(path, "\n")] = '\0';
		if (!path[0])
			continue;
		if (!(data = read_file(path, &len))) {
			fprintf(stderr, "lexers_agree: %s: %s\n", path, strerror(errno));
			status = 2;
			continue;
		}
		pp_scan_buffer(data, len, &sc);
		cxx_tokenize(data, len, &tk);
		a.n = b.n = 0;
		from_pp(&sc, &a);
		from_tokens(data, &tk, &b);
		bad += compare(path, data, &a, &b);
		files++;
		points += a.n;
		for (size_t i = 0; i < a.n; i++) {
			directive += a.v[i].directive;
			malformed += !a.v[i].literals;
		}
		free(data);
	}
	pp_scan_release(&sc);
	cxx_tokens_release(&tk);
	free(a.v);
	free(b.v);
	printf("%lu files, %lu trace points (%lu on # lines, %lu without two plain literals): %lu disagreements\n", files,
	       points, directive, malformed, bad);
	if (status == 0 && bad)
		status = 1;
	return status;
}
