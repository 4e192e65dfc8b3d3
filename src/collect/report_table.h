/* A table of report's output as data: named, typed columns and rows of
 * cells, which each format prints its own way (the command: text, CSV,
 * markdown, JSON; report_html.c: HTML). Times are nanoseconds, printed as
 * microseconds except in JSON. A table owns its text cells. */
#ifndef AUTOTRACE_REPORT_TABLE_H
#define AUTOTRACE_REPORT_TABLE_H

#include <stddef.h>
#include <stdint.h>

enum report_col_type {
	RC_TEXT,   /* a string */
	RC_COUNT,  /* an integer */
	RC_NS,     /* a duration: "NAME_ns" in JSON, "NAME_us" in CSV, "NAME(us)" in a table */
	RC_RATIO,  /* 0..1: a percentage in text */
	RC_FACTOR, /* a multiple: "1.25x" in text */
};

struct report_column {
	const char *name;
	enum report_col_type type;
};

union report_cell {
	char *text;
	uint64_t n;
	double x;
};

struct report_table {
	const char *name;           /* the JSON key: "by_rank" */
	const char *title;          /* a heading: "Per label across ranks" */
	const struct report_column *cols;
	size_t ncols;
	union report_cell *cells;   /* nrows x ncols */
	size_t nrows, capcells;      /* capcells: in cells */
};

/* `cols` (static) is not copied. */
struct report_table *report_table_new(const char *name, const char *title, const struct report_column *cols,
				      size_t ncols);
/* Appends a row of zeroed cells and returns them. */
union report_cell *report_table_row(struct report_table *t);
static inline const union report_cell *report_table_cell(const struct report_table *t, size_t row, size_t col)
{
	return &t->cells[row * t->ncols + col];
}
/* Sets a text cell to a copy of `text`. */
void report_cell_text(union report_cell *c, const char *text);
void report_table_free(struct report_table *t);

/* A number of the table's column `col` rounded for JSON: ratios to 4
 * decimals, factors to 2. */
double report_cell_json(const struct report_table *t, size_t row, size_t col);

/* The cell as text formats show it: microseconds with 3 decimals, "12.3%",
 * "1.25x", the integer in `buf`, which it returns; a text cell's own text. */
const char *report_cell_format(const struct report_table *t, size_t row, size_t col, char *buf, size_t size);
/* The column's heading: its name, with " (us)" for a duration. */
const char *report_column_head(const struct report_column *c, char *buf, size_t size);

#endif
