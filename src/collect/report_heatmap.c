/* The rank x label heatmap of report's page. See report_heatmap.h.
 *
 * A cell's colour is log2(time / the row's median), clamped to [-1, 1] and
 * cut into COLOURS steps; neighbouring cells of one colour are drawn as one
 * rectangle, so 1,024 ranks stay a few thousand elements. Its data holds
 * every cell, so a heatmap of more than REPORT_HEATMAP_MAX_CELLS is left
 * out, said in its place: 40,000 labels each on its own one of 40,000
 * ranks made 1.6 G cells of a 4 MB trace (issue 33). */
#include "report_heatmap.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report_markup.h"
#include "xalloc.h"

#define ROW_H 14
#define LABEL_W 300
#define COLOURS 10 /* per side of the median */
#define LEGEND_W 960 /* the width the line under the grid needs */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The step of `ns` against `median`: -COLOURS..COLOURS, or INT32_MIN for
 * a rank without the label. */
static int step(uint64_t ns, uint64_t median)
{
	double r;

	if (!ns)
		return INT32_MIN;
	if (!median)
		return COLOURS;
	r = log2((double)ns / (double)median);
	if (r > 1)
		r = 1;
	if (r < -1)
		r = -1;
	return (int)lround(r * COLOURS);
}

static void colour(struct strbuf *b, int s)
{
	if (s == INT32_MIN) {
		strbuf_puts(b, "#e8e8e8");
		return;
	}
	/* white at the median, to blue (faster) or red (slower) at twice */
	if (s >= 0)
		markup_printf(b, "hsl(0,80%%,%d%%)", 97 - s * 4);
	else
		markup_printf(b, "hsl(215,80%%,%d%%)", 97 + s * 4);
}

/* True when the heatmap is left out for its size. */
static bool too_large(struct report_views *v)
{
	size_t rows = report_views_rows(v), ranks = report_views_ranks(v);
	return ranks && rows > REPORT_HEATMAP_MAX_CELLS / ranks;
}

void report_heatmap_svg(struct strbuf *b, struct report_views *v, unsigned width)
{
	size_t rows = report_views_rows(v), ranks = report_views_ranks(v);
	double cw = ranks ? (double)(width - LABEL_W - 10) / (double)ranks : 0;
	uint64_t *sorted, *by_rank;
	unsigned height = (unsigned)(rows * ROW_H + 40);

	unsigned grid_w;

	if (too_large(v)) {
		markup_printf(b,
			      "<p class=\"heatmap-left-out\" id=\"heatmap-left-out\">The heatmap is left out: %zu rows "
			      "(labels and core types) by %zu ranks are more than %zu cells. The table \"Per label across "
			      "ranks\" has each label's spread over the ranks.</p>\n",
			      rows, ranks, (size_t)REPORT_HEATMAP_MAX_CELLS);
		return;
	}
	sorted = xcalloc(ranks + 1, sizeof(*sorted));
	by_rank = xcalloc(ranks + 1, sizeof(*by_rank));
	if (cw > 40)
		cw = 40;
	grid_w = (unsigned)(LABEL_W + cw * (double)ranks + 10);
	markup_printf(b,
		      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heatmap\" id=\"heatmap\" width=\"%u\" "
		      "height=\"%u\" viewBox=\"0 0 %u %u\" data-ranks=\"%zu\" data-rows=\"%zu\" data-cell-width=\"%.4f\" data-left=\"%u\" "
		      "data-row-height=\"%u\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"11\">\n",
		      grid_w > LEGEND_W ? grid_w : LEGEND_W, height, grid_w > LEGEND_W ? grid_w : LEGEND_W, height, ranks, rows,
		      cw, LABEL_W, ROW_H);
	for (size_t r = 0; r < rows; r++) {
		const char *label;
		int kind;
		size_t m = 0;
		uint64_t med;
		unsigned y = (unsigned)(r * ROW_H);

		report_views_row(v, r, &label, &kind, by_rank);
		for (size_t k = 0; k < ranks; k++)
			if (by_rank[k])
				sorted[m++] = by_rank[k];
		qsort(sorted, m, sizeof(*sorted), cmp_u64);
		med = m ? sorted[(m + 1) / 2 - 1] : 0;
		markup_printf(b, "<g class=\"heat-row\" data-label=\"");
		markup_text(b, label);
		markup_printf(b, "\" data-core=\"%s\" data-median-ns=\"%llu\"><text x=\"%u\" y=\"%u\" text-anchor=\"end\">",
			      stats_kind_name(kind), (unsigned long long)med, LABEL_W - 6, y + ROW_H - 3);
		markup_text(b, label);
		markup_printf(b, " (%s)</text>", stats_kind_name(kind));
		for (size_t k = 0; k < ranks;) {
			int s = step(by_rank[k], med);
			size_t e = k + 1;
			while (e < ranks && step(by_rank[e], med) == s)
				e++;
			markup_printf(b, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"", LABEL_W + cw * (double)k,
				      y, cw * (double)(e - k), ROW_H - 1);
			colour(b, s);
			strbuf_puts(b, "\"/>");
			k = e;
		}
		strbuf_puts(b, "</g>\n");
	}
	markup_printf(b, "<text x=\"%u\" y=\"%u\">ranks 0..%zu: blue faster, red slower than the row's median (x2 at "
			 "the ends), grey: no slice</text>\n",
		      LABEL_W, (unsigned)(rows * ROW_H + 20), ranks ? ranks - 1 : 0);
	strbuf_puts(b, "</svg>\n");
	free(sorted);
	free(by_rank);
}

void report_heatmap_json(struct strbuf *b, struct report_views *v)
{
	size_t rows = report_views_rows(v), ranks = report_views_ranks(v);
	uint64_t *by_rank;

	if (too_large(v)) {
		strbuf_puts(b, "{\"ranks\":[],\"rows\":[],\"left_out\":true}");
		return;
	}
	by_rank = xcalloc(ranks + 1, sizeof(*by_rank));
	strbuf_puts(b, "{\"ranks\":[");
	for (size_t k = 0; k < ranks; k++) {
		if (k)
			strbuf_putc(b, ',');
		markup_json_string(b, report_views_rank_name(v, k));
	}
	strbuf_puts(b, "],\"rows\":[");
	for (size_t r = 0; r < rows; r++) {
		const char *label;
		int kind;
		report_views_row(v, r, &label, &kind, by_rank);
		strbuf_puts(b, r ? ",\n{\"label\":" : "\n{\"label\":");
		markup_json_string(b, label);
		markup_printf(b, ",\"core\":\"%s\",\"ns\":[", stats_kind_name(kind));
		for (size_t k = 0; k < ranks; k++)
			markup_printf(b, k ? ",%llu" : "%llu", (unsigned long long)by_rank[k]);
		strbuf_puts(b, "]}");
	}
	strbuf_puts(b, "]}");
	free(by_rank);
}
