/* The dump container the readers fill (dump.h): its tensors, added one by
 * one, their words read little-endian, and freeing it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "xalloc.h"

void dump_free(struct dump *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->ntensors; i++) {
		free(d->tensors[i].name);
		if (!d->tensors[i].borrowed)
			free(d->tensors[i].words);
	}
	for (size_t i = 0; i < d->nblobs; i++)
		free(d->blobs[i]);
	free(d->blobs);
	free(d->tensors);
	free(d->path);
	free(d);
}

struct dump_tensor *dump_add_tensor(struct dump *d, const char *name, int elem_bytes, size_t ndim,
				    size_t rows, size_t cols, int64_t *words)
{
	struct dump_tensor *t;

	d->tensors = xrealloc(d->tensors, (d->ntensors + 1) * sizeof(*d->tensors));
	t = &d->tensors[d->ntensors++];
	t->name = xstrdup(name);
	t->elem_bytes = elem_bytes;
	t->ndim = ndim;
	t->rows = rows;
	t->cols = cols;
	t->words = words;
	t->borrowed = false;
	return t;
}

/* The integer of `bytes` (8 or 4) little-endian bytes at p, sign-extended. */
static inline int64_t load_le(const unsigned char *p, int bytes)
{
	uint64_t v8;
	uint32_t v4;

	if (bytes == 8) {
		memcpy(&v8, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v8 = __builtin_bswap64(v8);
#endif
		return (int64_t)v8;
	}
	memcpy(&v4, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v4 = __builtin_bswap32(v4);
#endif
	return (int32_t)v4;
}

void dump_words_le(int64_t *words, const unsigned char *p, size_t n, int elem_bytes)
{
	for (size_t i = 0; i < n; i++, p += elem_bytes)
		words[i] = load_le(p, elem_bytes);
}

