/* Shared by the trace fuzz targets (fuzz_chrome, fuzz_perfetto): read a
 * trace with report's views observing, then make every table, the page and
 * the flame graph, so that what the views keep of outside input (paths,
 * indexes, ranks, core names) is exercised, not only the rows. */
#ifndef AUTOTRACE_FUZZ_REPORT_H
#define AUTOTRACE_FUZZ_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "collect_stats.h"
#include "report_flame.h"
#include "report_html.h"
#include "report_views.h"

/* New stats with views observing (*v); diagnostics to /dev/null. */
static inline struct stats *fuzz_report_begin(struct report_views **v, bool whole_index, struct diag *diag)
{
	static FILE *null;
	struct stats *s = stats_new();

	if (!null)
		null = fopen("/dev/null", "w");
	diag_init(diag, null, false);
	*v = report_views_new(NULL, whole_index, diag);
	stats_observe(s, report_views_observer(*v));
	return s;
}

/* After a read that succeeded (`read_ok`): every output, thrown away; then frees. */
static inline void fuzz_report_end(struct stats *s, struct report_views *v, bool read_ok)
{
	struct report_table *t[6];
	struct strbuf b = { 0 };
	size_t n, k = 0;

	if (read_ok) {
		const struct stats_row *rows = stats_rows(s, &n);
		t[k++] = report_views_labels(rows, n);
		t[k++] = report_views_by_index(v);
		t[k++] = report_views_slowest_index(v);
		t[k++] = report_views_by_rank(v);
		t[k++] = report_views_by_core(v);
		t[k++] = report_views_by_stage(v);
		report_html_page(&b, "fuzz", v, t, k);
		report_flame_svg(&b, v, 800);
		strbuf_release(&b);
		for (size_t i = 0; i < k; i++)
			report_table_free(t[i]);
	}
	stats_free(s);
	report_views_free(v);
}

#endif
