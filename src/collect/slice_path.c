/* Interned paths of nested slices. See slice_path.h.
 *
 * Consecutive slices mostly open the same label under the same parent (a
 * loop's iterations), so each path remembers the child asked for last and
 * answers that without hashing. */
#include "slice_path.h"

#include <stdlib.h>

#include "xalloc.h"

struct path_key {
	const struct slice_paths *p;
	uint32_t parent, label;
};

static bool same_path(const void *ctx, size_t item)
{
	const struct path_key *k = ctx;
	return k->p->v[item].parent == k->parent && k->p->v[item].label == k->label;
}

uint32_t slice_path_child(struct slice_paths *p, uint32_t parent, uint32_t label)
{
	struct path_key key = { p, parent, label };
	uint64_t h;
	size_t k;

	if (!p->n) {
		XGROW(p->v, p->cap, 1);
		p->v[SLICE_PATH_ROOT] = (struct slice_path){ SLICE_PATH_ROOT, 0, 0, 0 };
		p->n = 1;
	}
	if (p->v[parent].hint && p->v[parent].hint_label == label)
		return p->v[parent].hint - 1;
	h = index_hash_u64((uint64_t)parent << 32 | label);
	k = index_table_find(&p->index, h, same_path, &key);
	if (k == SIZE_MAX) {
		XGROW(p->v, p->cap, p->n + 1);
		p->v[p->n] = (struct slice_path){ parent, label, 0, 0 };
		index_table_add(&p->index, h, p->n);
		k = p->n++;
	}
	p->v[parent].hint_label = label;
	p->v[parent].hint = (uint32_t)k + 1;
	return (uint32_t)k;
}

void slice_paths_release(struct slice_paths *p)
{
	free(p->v);
	index_table_free(&p->index);
	p->v = NULL;
	p->n = p->cap = 0;
}
