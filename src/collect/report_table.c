/* Report tables as data. See report_table.h. */
#include "report_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct report_table *report_table_new(const char *name, const char *title, const struct report_column *cols,
				      size_t ncols)
{
	struct report_table *t = xcalloc(1, sizeof(*t));
	t->name = name;
	t->title = title;
	t->cols = cols;
	t->ncols = ncols;
	return t;
}

union report_cell *report_table_row(struct report_table *t)
{
	union report_cell *row;

	XGROW(t->cells, t->capcells, (t->nrows + 1) * t->ncols);
	row = &t->cells[t->nrows++ * t->ncols];
	memset(row, 0, t->ncols * sizeof(*row));
	return row;
}

void report_cell_text(union report_cell *c, const char *text)
{
	free(c->text);
	c->text = xstrdup(text);
}

void report_table_free(struct report_table *t)
{
	if (!t)
		return;
	for (size_t c = 0; c < t->ncols; c++)
		if (t->cols[c].type == RC_TEXT)
			for (size_t r = 0; r < t->nrows; r++)
				free(t->cells[r * t->ncols + c].text);
	free(t->cells);
	free(t);
}

double report_cell_json(const struct report_table *t, size_t row, size_t col)
{
	const union report_cell *c = report_table_cell(t, row, col);

	switch (t->cols[col].type) {
	case RC_RATIO: return round(c->x * 10000) / 10000;
	case RC_FACTOR: return round(c->x * 100) / 100;
	case RC_TEXT: return 0;
	default: return (double)c->n;
	}
}

const char *report_cell_format(const struct report_table *t, size_t row, size_t col, char *buf, size_t size)
{
	const union report_cell *c = report_table_cell(t, row, col);

	switch (t->cols[col].type) {
	case RC_TEXT: return c->text ? c->text : "";
	case RC_COUNT: snprintf(buf, size, "%llu", (unsigned long long)c->n); break;
	case RC_NS: snprintf(buf, size, "%.3f", (double)c->n / 1000.0); break;
	case RC_RATIO: snprintf(buf, size, "%.1f%%", 100 * c->x); break;
	case RC_FACTOR: snprintf(buf, size, "%.2fx", c->x); break;
	}
	return buf;
}

const char *report_column_head(const struct report_column *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", c->name, c->type == RC_NS ? " (us)" : "");
	return buf;
}
