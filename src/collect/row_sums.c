/* Sums per row and ordinal, dense or hashed. See row_sums.h.
 *
 * An ordinal the row's array covers is always counted there: when the
 * array grows over ordinals the row already holds in the hash table, their
 * cells are moved in (and left behind, dead: a hashed cell counts only
 * past its row's array). */
#include "row_sums.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void row_sums_release(struct row_sums *s)
{
	for (size_t i = 0; i < s->caprows; i++) {
		free(s->rows[i].total);
		free(s->rows[i].count);
	}
	free(s->rows);
	free(s->cells);
	index_table_free(&s->index);
	memset(s, 0, sizeof(*s));
}

struct cell_key {
	const struct row_sums *s;
	uint32_t row, at;
};

static bool same_cell(const void *ctx, size_t item)
{
	const struct cell_key *k = ctx;
	return k->s->cells[item].row == k->row && k->s->cells[item].at == k->at;
}

static uint64_t cell_hash(uint32_t row, uint32_t at)
{
	return index_hash_u64((uint64_t)row << 32 | at);
}

/* Grows row r's array to hold `at` when that keeps it dense; false when not. */
static bool grow_dense(struct row_sums *s, struct row_sums_row *r, uint32_t at)
{
	size_t n = r->cap ? r->cap : ROW_SUMS_FLOOR, old = r->cap;

	while (n <= at)
		n *= 2;
	if (n > ROW_SUMS_FLOOR && n > (size_t)ROW_SUMS_SPREAD * (r->used + 1))
		return false;
	r->total = xrealloc(r->total, n * sizeof(*r->total));
	r->count = xrealloc(r->count, n * sizeof(*r->count));
	memset(r->total + old, 0, (n - old) * sizeof(*r->total));
	memset(r->count + old, 0, (n - old) * sizeof(*r->count));
	r->cap = n;
	for (uint32_t c = r->sparse; c; c = s->cells[c - 1].next) {
		const struct row_sums_cell *x = &s->cells[c - 1];
		if (x->at >= old && x->at < n) {
			r->total[x->at] = x->total;
			r->count[x->at] = x->count;
		}
	}
	return true;
}

void row_sums_add(struct row_sums *s, uint32_t row, uint32_t at, uint64_t dur)
{
	struct row_sums_row *r;
	struct row_sums_cell *x;
	struct cell_key key = { s, row, at };
	uint64_t h;
	size_t k;

	if (row >= s->caprows) {
		size_t n = s->caprows ? s->caprows : 16;
		while (n <= row)
			n *= 2;
		s->rows = xrealloc(s->rows, n * sizeof(*s->rows));
		memset(s->rows + s->caprows, 0, (n - s->caprows) * sizeof(*s->rows));
		s->caprows = n;
	}
	r = &s->rows[row];
	if (at < r->cap || grow_dense(s, r, at)) {
		if (!r->count[at]++)
			r->used++;
		r->total[at] += dur;
		return;
	}
	if (s->last && same_cell(&key, s->last - 1)) {
		k = s->last - 1;
	} else {
		h = cell_hash(row, at);
		k = index_table_find(&s->index, h, same_cell, &key);
		if (k == SIZE_MAX) {
			XGROW(s->cells, s->capcells, s->ncells + 1);
			s->cells[s->ncells] = (struct row_sums_cell){ row, at, 0, 0, r->sparse };
			r->sparse = (uint32_t)s->ncells + 1;
			r->used++;
			index_table_add(&s->index, h, s->ncells);
			k = s->ncells++;
		}
		s->last = k + 1;
	}
	x = &s->cells[k];
	x->total += dur;
	x->count++;
}

size_t row_sums_list(const struct row_sums *s, uint32_t row, struct row_sums_entry **out, size_t *cap)
{
	const struct row_sums_row *r;
	size_t n = 0;

	if (row >= s->caprows)
		return 0;
	r = &s->rows[row];
	XGROW(*out, *cap, (size_t)r->used + 1);
	for (size_t i = 0; i < r->cap; i++)
		if (r->count[i])
			(*out)[n++] = (struct row_sums_entry){ (uint32_t)i, r->total[i], r->count[i] };
	for (uint32_t c = r->sparse; c; c = s->cells[c - 1].next) {
		const struct row_sums_cell *x = &s->cells[c - 1];
		if (x->at >= r->cap)
			(*out)[n++] = (struct row_sums_entry){ x->at, x->total, x->count };
	}
	return n;
}
