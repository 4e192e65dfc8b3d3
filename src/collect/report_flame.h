/* report's flame graph: the tree of nested points per core type as one SVG
 * document (report --format svg; the HTML page inlines it). */
#ifndef AUTOTRACE_REPORT_FLAME_H
#define AUTOTRACE_REPORT_FLAME_H

#include "report_views.h"
#include "strbuf.h"

/* Appends the SVG, `width` pixels wide, to `b`. */
void report_flame_svg(struct strbuf *b, struct report_views *v, unsigned width);

#endif
