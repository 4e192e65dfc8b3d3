/* Sorted byte-offset insertions (and the rare replacement of a keyword)
 * applied to an original buffer in one pass; the splice that apply and wire
 * share. */
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

int edit_splice(const char *data, size_t len, const struct edit_span *v, size_t n, char **out, size_t *out_len,
		size_t *at, size_t *bad)
{
	size_t total = len + 1, o = 0;
	uint32_t from = 0;
	char *s;

	for (size_t i = 0; i < n; i++) {
		if (v[i].start < from || v[i].end < v[i].start || v[i].end > len) {
			*bad = i;
			return -1;
		}
		from = v[i].end;
		total += strlen(v[i].text);
	}
	s = xmalloc(total);
	from = 0;
	for (size_t i = 0; i < n; i++) {
		size_t tl = strlen(v[i].text);
		memcpy(s + o, data + from, v[i].start - from);
		o += v[i].start - from;
		if (at)
			at[i] = o;
		memcpy(s + o, v[i].text, tl);
		o += tl;
		from = v[i].end;
	}
	memcpy(s + o, data + from, len - from);
	o += len - from;
	s[o] = '\0';
	*out = s;
	*out_len = o;
	return 0;
}

/* Does the file end its lines with CR LF (its first line does)? */
static bool crlf_file(const struct src_file *f)
{
	const char *nl = memchr(f->data, '\n', f->len);

	return nl && nl > f->data && nl[-1] == '\r';
}

/* `text` with every LF not after a CR written CR LF (newly allocated). */
static char *to_crlf(const char *text)
{
	size_t n = 0, k = 0;
	char *o;

	for (const char *p = text; *p; p++)
		n += 1 + (*p == '\n' && (p == text || p[-1] != '\r'));
	o = xmalloc(n + 1);
	for (const char *p = text; *p; p++) {
		if (*p == '\n' && (p == text || p[-1] != '\r'))
			o[k++] = '\r';
		o[k++] = *p;
	}
	o[k] = '\0';
	return o;
}

int edit_list_apply(struct edit_list *l, const struct src_file *f, char **out, size_t *out_len, struct diag *diag)
{
	struct edit_span *v = xcalloc(l->n + 1, sizeof(*v));
	char **owned = NULL;
	bool crlf = crlf_file(f);
	size_t bad = 0;
	int rc;

	xqsort(l->v, l->n, sizeof(*l->v), cmp_frag);
	if (crlf)
		owned = xcalloc(l->n + 1, sizeof(*owned));
	for (size_t i = 0; i < l->n; i++) {
		v[i].start = l->v[i].off;
		v[i].end = l->v[i].off + l->v[i].del;
		/* the lines it inserts end as the file's do */
		v[i].text = crlf && strchr(l->v[i].text, '\n') ? (owned[i] = to_crlf(l->v[i].text)) : l->v[i].text;
	}
	rc = edit_splice(f->data, f->len, v, l->n, out, out_len, NULL, &bad);
	if (rc != 0)
		diag_at(diag, DIAG_ERROR, src_loc_make(f, v[bad].start, v[bad].end),
			"internal error: overlapping edits (inserting '%s')", v[bad].text);
	for (size_t i = 0; owned && i < l->n; i++)
		free(owned[i]);
	free(owned);
	free(v);
	return rc;
}
