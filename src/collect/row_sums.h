/* Sums per row and ordinal for report's views: a table row's (a label's on
 * one core type) total time and slice count on each rank, or on each core.
 * A row keeps an array indexed by the ordinal while the array stays dense
 * (its length at most ROW_SUMS_SPREAD cells per ordinal the row holds, or
 * ROW_SUMS_FLOOR); the ordinals past that go to one hash table shared by
 * all rows. With an array per row whatever its use, a trace of labels each
 * on one of 40,000 ranks cost 40,000 cells per label: 21 GB for a 4 MB
 * trace (issue 33). Memory grows with the (row, ordinal) pairs seen. */
#ifndef AUTOTRACE_ROW_SUMS_H
#define AUTOTRACE_ROW_SUMS_H

#include <stddef.h>
#include <stdint.h>

#include "index_table.h"

#define ROW_SUMS_FLOOR 16
#define ROW_SUMS_SPREAD 4

struct row_sums_row {
	uint64_t *total;            /* [0, cap): the dense part */
	uint32_t *count;
	size_t cap;
	uint32_t used;              /* ordinals with a slice, dense or not */
	uint32_t sparse;            /* the first of its hashed cells + 1 (0: none) */
};

struct row_sums_cell {
	uint32_t row, at;
	uint64_t total;
	uint32_t count;
	uint32_t next;              /* the row's next hashed cell + 1 */
};

/* Zeroed storage is empty; release frees it. */
struct row_sums {
	struct row_sums_row *rows;
	size_t caprows;
	struct row_sums_cell *cells;
	size_t ncells, capcells;
	struct index_table index;   /* (row, at) -> cell */
	size_t last;                /* the cell found last + 1 */
};

void row_sums_release(struct row_sums *s);

/* Adds a slice of `dur` ns to (row, at). */
void row_sums_add(struct row_sums *s, uint32_t row, uint32_t at, uint64_t dur);

/* What a row holds at one ordinal. */
struct row_sums_entry {
	uint32_t at;
	uint64_t total;
	uint32_t count;
};

/* The ordinals of `row` with a slice, in no order, into *out (grown, *cap
 * its size); their number. */
size_t row_sums_list(const struct row_sums *s, uint32_t row, struct row_sums_entry **out, size_t *cap);

#endif
