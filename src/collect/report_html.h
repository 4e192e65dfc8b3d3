/* report's page: one self-contained HTML file (report --format html). */
#ifndef AUTOTRACE_REPORT_HTML_H
#define AUTOTRACE_REPORT_HTML_H

#include <stddef.h>

#include "report_table.h"
#include "report_views.h"
#include "strbuf.h"

/* Appends the page about `inputs` (shown as its title): the flame graph,
 * the heatmap, then `tables` in order. */
void report_html_page(struct strbuf *b, const char *inputs, struct report_views *v,
		      struct report_table *const *tables, size_t ntables);

#endif
