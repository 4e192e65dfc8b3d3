/* The flame graph of report (--format svg, and in the HTML page): per core
 * type, the tree of nested points laid out top down, each box as wide as
 * its total time, children under their parent sorted by label; the points
 * whose call waits (and what they hold) drawn in blue, the rest in flame
 * colours. Plain SVG: a <title> in each box is its tooltip, no script. */
#include "report_flame.h"

#include <stdlib.h>
#include <string.h>

#include "report_markup.h"
#include "xalloc.h"

#define ROW_H 18
#define LEFT 8
#define CHAR_W 6.6 /* of the 11px sans-serif the labels are drawn in */

struct layout {
	const struct report_node *nodes;
	struct report_views *v;
	uint32_t *kids;              /* the children of node i, sorted: kids[first[i] ..] */
	size_t *first, *nchildren;
	uint32_t *roots[STATS_KINDS];
	size_t nroots[STATS_KINDS];
	unsigned *depth;
	unsigned max_depth[STATS_KINDS]; /* levels of the tree of each kind */
};

static struct report_views *sort_v;
static const struct report_node *sort_nodes;

static int cmp_child(const void *a, const void *b)
{
	const struct report_node *x = &sort_nodes[*(const uint32_t *)a], *y = &sort_nodes[*(const uint32_t *)b];
	return strcmp(report_views_label(sort_v, x->label), report_views_label(sort_v, y->label));
}

/* Children and roots counted, then placed: linear in the nodes, however
 * many children one node has or how deep the tree is. */
static void layout_build(struct layout *l, struct report_views *v)
{
	size_t n, at = 0, put[STATS_KINDS] = { 0 };
	size_t *fill;

	memset(l, 0, sizeof(*l));
	l->v = v;
	l->nodes = report_views_nodes(v, &n);
	l->kids = xcalloc(n + 1, sizeof(*l->kids));
	l->first = xcalloc(n + 1, sizeof(*l->first));
	l->nchildren = xcalloc(n + 1, sizeof(*l->nchildren));
	l->depth = xcalloc(n + 1, sizeof(*l->depth));
	fill = xcalloc(n + 1, sizeof(*fill));
	for (size_t i = 0; i < n; i++) {
		const struct report_node *x = &l->nodes[i];
		if (x->parent == REPORT_NO_NODE) {
			l->nroots[x->kind]++;
		} else {
			/* children follow their parent: its depth is known */
			l->depth[i] = l->depth[x->parent] + 1;
			l->nchildren[x->parent]++;
		}
		if (l->depth[i] + 1 > l->max_depth[x->kind])
			l->max_depth[x->kind] = l->depth[i] + 1;
	}
	for (size_t i = 0; i < n; i++) {
		l->first[i] = at;
		at += l->nchildren[i];
	}
	for (int k = 0; k < STATS_KINDS; k++)
		l->roots[k] = xcalloc(l->nroots[k] + 1, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++) {
		const struct report_node *x = &l->nodes[i];
		if (x->parent == REPORT_NO_NODE)
			l->roots[x->kind][put[x->kind]++] = (uint32_t)i;
		else
			l->kids[l->first[x->parent] + fill[x->parent]++] = (uint32_t)i;
	}
	free(fill);
	sort_v = v;
	sort_nodes = l->nodes;
	for (size_t i = 0; i < n; i++)
		xqsort(l->kids + l->first[i], l->nchildren[i], sizeof(uint32_t), cmp_child);
	for (int k = 0; k < STATS_KINDS; k++)
		xqsort(l->roots[k], l->nroots[k], sizeof(uint32_t), cmp_child);
	sort_v = NULL;
	sort_nodes = NULL;
}

static void layout_free(struct layout *l)
{
	free(l->kids);
	free(l->first);
	free(l->nchildren);
	free(l->depth);
	for (int k = 0; k < STATS_KINDS; k++)
		free(l->roots[k]);
}

/* A flame colour from the label's bytes (stable between runs), or a blue
 * for the points that wait. */
static void fill(struct strbuf *b, const char *label, bool waits)
{
	unsigned h = 2166136261u;

	for (const char *p = label; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	if (waits)
		markup_printf(b, "hsl(%u,60%%,%u%%)", 200 + h % 30, 55 + (h >> 8) % 15);
	else
		markup_printf(b, "hsl(%u,85%%,%u%%)", h % 45, 55 + (h >> 8) % 12);
}

/* Draws node i's box (`waiting`: it or a point above it waits); false when
 * it is narrower than a pixel's third: not drawn, nor its children. */
static bool box(struct strbuf *b, const struct layout *l, uint32_t i, double x, double scale, unsigned y0,
		uint64_t kind_total, bool waiting)
{
	const struct report_node *nd = &l->nodes[i];
	const char *label = report_views_label(l->v, nd->label);
	double w = (double)nd->total_ns * scale;
	unsigned y = y0 + l->depth[i] * ROW_H;
	size_t fit;

	if (w < 0.3)
		return false;
	strbuf_puts(b, "<g class=\"node\" data-label=\"");
	markup_text(b, label);
	markup_printf(b, "\" data-depth=\"%u\" data-total-ns=\"%llu\" data-count=\"%llu\"%s><title>", l->depth[i],
		      (unsigned long long)nd->total_ns, (unsigned long long)nd->count, waiting ? " data-wait=\"1\"" : "");
	markup_text(b, label);
	strbuf_puts(b, ": ");
	markup_duration(b, nd->total_ns);
	markup_printf(b, " in %llu slices, %.1f%% of the time%s</title><rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"",
		      (unsigned long long)nd->count, kind_total ? 100.0 * (double)nd->total_ns / (double)kind_total : 0.0,
		      waiting ? " (waiting)" : "", x, y, w, ROW_H - 1);
	fill(b, label, waiting);
	strbuf_puts(b, "\"/>");
	fit = w > 12 ? (size_t)((w - 6) / CHAR_W) : 0;
	if (fit >= 3) {
		size_t len = strlen(label);
		char *shown = xstrdup(label);
		if (len > fit) {
			size_t cut = fit - 2;
			while (cut && ((unsigned char)shown[cut] & 0xC0) == 0x80)
				cut--; /* not inside a UTF-8 sequence */
			memcpy(shown + cut, "..", 3);
		}
		markup_printf(b, "<text x=\"%.2f\" y=\"%u\">", x + 3, y + ROW_H - 5);
		markup_text(b, shown);
		strbuf_puts(b, "</text>");
		free(shown);
	}
	strbuf_puts(b, "</g>\n");
	return true;
}

/* A box still to draw: its node, left edge, and whether a point above it waits. */
struct pending_box {
	uint32_t node;
	double x;
	bool waiting;
};

/* Pushes boxes `nodes[0 .. n)` side by side from `x` onto the stack, the
 * first on top (their left edges summed in order, as they are drawn). */
static void push_row(struct pending_box **stack, size_t *sp, size_t *cap, const struct layout *l,
		     const uint32_t *nodes, size_t n, double x, double scale, bool waiting)
{
	XGROW(*stack, *cap, *sp + n);
	for (size_t c = 0; c < n; c++) {
		(*stack)[*sp + n - 1 - c] = (struct pending_box){ nodes[c], x, waiting };
		x += (double)l->nodes[nodes[c]].total_ns * scale;
	}
	*sp += n;
}

/* The boxes of the trees under `roots`, each node before its children (an
 * explicit stack: a tree 50,000 levels deep overflowed the call stack). */
static void draw_trees(struct strbuf *b, const struct layout *l, const uint32_t *roots, size_t nroots, double x,
		       double scale, unsigned y0, uint64_t kind_total)
{
	struct pending_box *stack = NULL;
	size_t sp = 0, cap = 0;

	push_row(&stack, &sp, &cap, l, roots, nroots, x, scale, false);
	while (sp) {
		struct pending_box p = stack[--sp];
		bool waiting = p.waiting || report_views_label_waits(l->v, l->nodes[p.node].label);
		if (box(b, l, p.node, p.x, scale, y0, kind_total, waiting))
			push_row(&stack, &sp, &cap, l, l->kids + l->first[p.node], l->nchildren[p.node], p.x, scale, waiting);
	}
	free(stack);
}

void report_flame_svg(struct strbuf *b, struct report_views *v, unsigned width)
{
	struct layout l;
	size_t n;
	unsigned y = 0, heights[STATS_KINDS] = { 0 }, total_h = 0;
	static const int kinds[] = { STATS_AIC, STATS_AIV, STATS_OTHER };

	layout_build(&l, v);
	report_views_nodes(v, &n);
	for (int k = 0; k < STATS_KINDS; k++)
		if (l.nroots[k]) {
			heights[k] = 24 + l.max_depth[k] * ROW_H + 12;
			total_h += heights[k];
		}
	if (!total_h)
		total_h = 24;
	markup_printf(b,
		      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flame\" width=\"%u\" height=\"%u\" "
		      "viewBox=\"0 0 %u %u\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"11\">\n"
		      "<style>.node text{pointer-events:none;fill:#000}.node:hover rect{stroke:#000;stroke-width:1}"
		      ".kind{font-size:13px;font-weight:bold}</style>\n",
		      width, total_h, width, total_h);
	if (!n)
		strbuf_puts(b, "<text x=\"8\" y=\"16\">no slices</text>\n");
	for (size_t ki = 0; ki < 3; ki++) {
		int k = kinds[ki];
		uint64_t total = 0;
		double x = LEFT, scale;
		if (!l.nroots[k])
			continue;
		for (size_t r = 0; r < l.nroots[k]; r++)
			total += l.nodes[l.roots[k][r]].total_ns;
		scale = total ? (double)(width - 2 * LEFT) / (double)total : 0;
		markup_printf(b, "<g class=\"flame-kind\" data-core=\"%s\" data-total-ns=\"%llu\">\n", stats_kind_name(k),
			      (unsigned long long)total);
		markup_printf(b, "<text class=\"kind\" x=\"%u\" y=\"%u\">%s: ", LEFT, y + 16, stats_kind_name(k));
		markup_duration(b, total);
		strbuf_puts(b, " in the outermost points (blue: waiting)</text>\n");
		draw_trees(b, &l, l.roots[k], l.nroots[k], x, scale, y + 24, total);
		strbuf_puts(b, "</g>\n");
		y += heights[k];
	}
	strbuf_puts(b, "</svg>\n");
	layout_free(&l);
}
