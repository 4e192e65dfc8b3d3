/* What every part of the outline parser writes with: the outline's arena,
 * its strings (copies and joined token runs) and its warnings and notes --
 * the leaf below the recursive descent (cxx_parser_*.c), the preprocessor
 * layer and cxx_outline.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_outline.h"
#include "cxx_parser.h"
#include "xalloc.h"

/* ------------------------------------------------------------ arena */

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	char data[];
};

struct cxx_arena {
	struct arena_chunk *head;
};

struct cxx_arena *cxx_arena_new(void)
{
	return xcalloc(1, sizeof(struct cxx_arena));
}

void cxx_arena_free(struct cxx_arena *a)
{
	if (!a)
		return;
	while (a->head) {
		struct arena_chunk *c = a->head;
		a->head = c->next;
		free(c);
	}
	free(a);
}

void *cxx_arena_alloc(struct cxx_arena *a, size_t n)
{
	struct arena_chunk *c = a->head;

	n = (n + 7) & ~(size_t)7;
	if (!c || c->cap - c->used < n) {
		/* chunks double from 512 bytes to 32 KiB: the outline of a file of
		 * one line costs bytes, not the 32 KiB a tree of 100,000 of them
		 * would each hold */
		size_t cap = c ? (c->cap >= 16384 ? 32768 : c->cap * 2) : 512;
		if (cap < n)
			cap = n;
		c = xmalloc(sizeof(*c) + cap);
		c->cap = cap;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

const char *cxx_outline_strdup(struct cxx_outline *ol, const char *s, size_t len)
{
	char *p = cxx_arena_alloc(ol->arena, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

const char *cxx_join(struct cxx_outline *ol, const struct cxx_token *t, size_t a, size_t b)
{
	const char *src = ol->file->data;
	size_t len = 0;
	char *out, *w;

	for (size_t i = a; i < b; i++)
		len += (t[i].end - t[i].start) + (i > a && (t[i].flags & (CXX_TF_SPACE | CXX_TF_BOL)));
	w = out = cxx_arena_alloc(ol->arena, len + 1);
	for (size_t i = a; i < b; i++) {
		if (i > a && (t[i].flags & (CXX_TF_SPACE | CXX_TF_BOL)))
			*w++ = ' ';
		memcpy(w, src + t[i].start, t[i].end - t[i].start);
		w += t[i].end - t[i].start;
	}
	*w = '\0';
	return out;
}

static void vreport(struct cxx_outline *ol, struct diag *diag, enum diag_level lvl, uint32_t start,
		    uint32_t end, const char *fmt, va_list ap)
{
	if (lvl == DIAG_WARNING)
		ol->warnings++;
	if (diag)
		diag_vat(diag, lvl, src_loc_make(ol->file, start, end), fmt, ap);
}

void cxx_warn(struct cxx_outline *ol, struct diag *diag, uint32_t start, uint32_t end, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(ol, diag, DIAG_WARNING, start, end, fmt, ap);
	va_end(ap);
}

void cxx_note(struct cxx_outline *ol, struct diag *diag, uint32_t start, uint32_t end, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(ol, diag, DIAG_NOTE, start, end, fmt, ap);
	va_end(ap);
}
