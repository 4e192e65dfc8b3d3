/* The growing byte buffer. See strbuf.h. */
#include "strbuf.h"

#include <stdlib.h>

#include "xalloc.h"

char *strbuf_room(struct strbuf *b, size_t more)
{
	XGROW(b->s, b->cap, b->n + more + 1);
	return b->s + b->n;
}

char *strbuf_take(struct strbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	b->s = NULL;
	b->n = b->cap = 0;
	return s;
}

void strbuf_release(struct strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->n = b->cap = 0;
}
