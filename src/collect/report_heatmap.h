/* report's heatmap: ranks across, one row per label and core type, each
 * cell the rank's time in that label against the row's median over the
 * ranks (blue faster, red slower), as inline SVG with its data beside it
 * for the page's tooltip. */
#ifndef AUTOTRACE_REPORT_HEATMAP_H
#define AUTOTRACE_REPORT_HEATMAP_H

#include "report_views.h"
#include "strbuf.h"

/* Heatmaps of more cells (rows x ranks) are left out: a paragraph saying so
 * stands in the SVG's place, and the data is {"ranks": [], "rows": [],
 * "left_out": true}. */
#define REPORT_HEATMAP_MAX_CELLS ((size_t)1 << 21)

/* Appends the SVG, `width` pixels wide at most, to `b`. */
void report_heatmap_svg(struct strbuf *b, struct report_views *v, unsigned width);
/* Appends {"ranks": [names], "rows": [{"label", "core", "ns": [per rank]}]}. */
void report_heatmap_json(struct strbuf *b, struct report_views *v);

#endif
