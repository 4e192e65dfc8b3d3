/* A hash index over items kept elsewhere (an array the caller owns): open
 * addressing from a 64-bit hash to an item number. The table keeps each
 * item's hash, so it grows without asking the caller again; lookups compare
 * the stored hash first and then call the caller's equality test. Used where
 * a reader meets the same few keys millions of times (tracks, labels,
 * interned names of the trace readers) and wherever a name is looked up by
 * hash (macros, the files of a scan, the functions of a plan, the interned
 * strings of a point map): the one hash table of the program. */
#ifndef AUTOTRACE_INDEX_TABLE_H
#define AUTOTRACE_INDEX_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct index_slot {
	uint64_t hash;
	size_t item;                  /* item number + 1; 0 = empty */
};

struct index_table {
	struct index_slot *slot;
	size_t cap, n;                /* cap a power of two, at least twice n */
};

/* FNV-1a (64-bit) over `n` bytes: the one string hash of the program (hash
 * indexes, the build stamp, the diff's line hashes). index_hash_more goes on
 * from an earlier value, for a hash over several fields; index_hash_bytes
 * starts from the offset basis INDEX_HASH_BASIS. index_hash_u64 is a 64-bit
 * finaliser for keys that are numbers. */
#define INDEX_HASH_BASIS 14695981039346656037ULL
static inline uint64_t index_hash_more(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ULL;
	return h;
}

static inline uint64_t index_hash_bytes(const void *p, size_t n)
{
	return index_hash_more(INDEX_HASH_BASIS, p, n);
}

/* FNV-1a's steps over eight bytes at a time, each step's high bits folded
 * into the low ones that a table's mask keeps: for long keys looked up
 * often (the planner's "unit\002scope\002var" and type texts), where
 * index_hash_bytes costs a multiply per byte (callgrind, `autotrace plan`
 * of the corpus's dispatch_ffn_combine_w4_a8: 66.2M instructions with
 * index_hash_bytes, 64.0M with this). Only for table indexes: its values
 * are not FNV-1a's, never store them. */
static inline uint64_t index_hash_words(const char *s, size_t n)
{
	uint64_t h = INDEX_HASH_BASIS, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 1099511628211ULL;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w ^ n) * 1099511628211ULL;
	return h ^ (h >> 32);
}

uint64_t index_hash_u64(uint64_t v);

/* The item whose hash is `h` and for which `same(ctx, item)` holds, or
 * SIZE_MAX. Inline, so that a static `same` is inlined too. */
static inline size_t index_table_find(const struct index_table *t, uint64_t h, bool (*same)(const void *ctx, size_t item),
				      const void *ctx)
{
	if (!t->cap)
		return SIZE_MAX;
	for (size_t i = (size_t)h & (t->cap - 1); t->slot[i].item; i = (i + 1) & (t->cap - 1))
		if (t->slot[i].hash == h && same(ctx, t->slot[i].item - 1))
			return t->slot[i].item - 1;
	return SIZE_MAX;
}

/* Adds `item` under hash `h` (not there yet), growing the table as needed. */
void index_table_add(struct index_table *t, uint64_t h, size_t item);
void index_table_free(struct index_table *t);

#endif
