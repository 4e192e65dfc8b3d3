/* A growing byte buffer for text built in memory (a point map's JSON, a
 * shell word being expanded, the JSON of scan before it is flushed): one
 * type with one growth rule instead of a private buffer per writer. The
 * text is always NUL-terminated once anything was put, so it can be used
 * as a string. Zero-initialise it (`struct strbuf b = { 0 };`). */
#ifndef AUTOTRACE_STRBUF_H
#define AUTOTRACE_STRBUF_H

#include <stddef.h>
#include <string.h>

struct strbuf {
	char *s;      /* owned; NULL until something is put */
	size_t n;     /* bytes, not counting the terminating NUL */
	size_t cap;
};

/* Room for `more` bytes after the text (and the NUL), growing as needed:
 * write up to `more` bytes at the pointer returned, then strbuf_commit. */
char *strbuf_room(struct strbuf *b, size_t more);

static inline void strbuf_commit(struct strbuf *b, size_t written)
{
	b->n += written;
	b->s[b->n] = '\0';
}

static inline void strbuf_put(struct strbuf *b, const void *p, size_t n)
{
	if (b->n + n + 1 > b->cap)
		strbuf_room(b, n);
	memcpy(b->s + b->n, p, n);
	strbuf_commit(b, n);
}

static inline void strbuf_puts(struct strbuf *b, const char *s)
{
	strbuf_put(b, s, strlen(s));
}

static inline void strbuf_putc(struct strbuf *b, char c)
{
	/* (no memcpy of one byte: JSON writers put punctuation this way) */
	if (b->n + 2 > b->cap)
		strbuf_room(b, 1);
	b->s[b->n++] = c;
	b->s[b->n] = '\0';
}

/* Empties the text, keeping the room (a buffer that is flushed and reused). */
static inline void strbuf_clear(struct strbuf *b)
{
	b->n = 0;
	if (b->s)
		b->s[0] = '\0';
}

/* The text, handed to the caller (never NULL: "" when empty); b is empty after. */
char *strbuf_take(struct strbuf *b);
void strbuf_release(struct strbuf *b);

#endif
