/* Sorted byte-offset insertions (and the rare replacement of a keyword)
 * applied to an original buffer in one pass. */
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "xalloc.h"

void edit_list_init(struct edit_list *l)
{
	memset(l, 0, sizeof(*l));
}

void edit_list_release(struct edit_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void edit_list_add(struct edit_list *l, uint32_t off, uint32_t del, int band, int k1, int k2, const char *text)
{
	struct edit_frag *f;

	XGROW(l->v, l->cap, l->n + 1);
	f = &l->v[l->n++];
	f->off = off;
	f->del = del;
	f->band = band;
	f->k1 = k1;
	f->k2 = k2;
	f->seq = l->seq++;
	f->text = xstrdup(text);
}

static int cmp_frag(const void *pa, const void *pb)
{
	const struct edit_frag *a = pa, *b = pb;

	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	/* a replacement goes after the insertions at its offset */
	if ((a->del != 0) != (b->del != 0))
		return a->del ? 1 : -1;
	if (a->band != b->band)
		return a->band - b->band;
	if (a->k1 != b->k1)
		return a->k1 < b->k1 ? -1 : 1;
	if (a->k2 != b->k2)
		return a->k2 < b->k2 ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

char *edit_list_apply(struct edit_list *l, const char *data, size_t len, size_t *out_len)
{
	size_t total = len + 1, o = 0;
	uint32_t at = 0;
	char *out;

	xqsort(l->v, l->n, sizeof(*l->v), cmp_frag);
	for (size_t i = 0; i < l->n; i++)
		total += strlen(l->v[i].text);
	out = xmalloc(total);
	for (size_t i = 0; i < l->n; i++) {
		const struct edit_frag *f = &l->v[i];
		size_t n;
		if (f->off < at)
			continue; /* inside a replaced span: cannot happen with well-formed edits */
		memcpy(out + o, data + at, f->off - at);
		o += f->off - at;
		at = f->off;
		n = strlen(f->text);
		memcpy(out + o, f->text, n);
		o += n;
		at += f->del;
	}
	memcpy(out + o, data + at, len - at);
	o += len - at;
	out[o] = '\0';
	*out_len = o;
	return out;
}
