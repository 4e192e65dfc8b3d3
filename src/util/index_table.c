/* Hash index over caller-owned items. See index_table.h. */
#include "index_table.h"

#include <stdlib.h>

#include "xalloc.h"

uint64_t index_hash_u64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	v *= 0xc4ceb9fe1a85ec53ULL;
	v ^= v >> 33;
	return v;
}

static void put(struct index_slot *slot, size_t cap, uint64_t h, size_t item1)
{
	size_t i = (size_t)h & (cap - 1);

	while (slot[i].item)
		i = (i + 1) & (cap - 1);
	slot[i].hash = h;
	slot[i].item = item1;
}

void index_table_add(struct index_table *t, uint64_t h, size_t item)
{
	if ((t->n + 1) * 2 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct index_slot *slot = xcalloc(cap, sizeof(*slot));
		for (size_t i = 0; i < t->cap; i++)
			if (t->slot[i].item)
				put(slot, cap, t->slot[i].hash, t->slot[i].item);
		free(t->slot);
		t->slot = slot;
		t->cap = cap;
	}
	put(t->slot, t->cap, h, item + 1);
	t->n++;
}

void index_table_free(struct index_table *t)
{
	free(t->slot);
	t->slot = NULL;
	t->cap = t->n = 0;
}
