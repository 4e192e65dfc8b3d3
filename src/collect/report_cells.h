/* The text cells of report's CSV and markdown tables (labels, core and rank
 * names: anyone's text, from a trace or a point map), written so that they
 * stay one cell of data: a CSV cell is never read as a spreadsheet formula,
 * a markdown cell never as markup (issue 33). Numbers are not text cells:
 * they are written as they are. */
#ifndef AUTOTRACE_REPORT_CELLS_H
#define AUTOTRACE_REPORT_CELLS_H

#include <stdio.h>

/* `s` as one CSV field: a text starting with = + - @, a tab or a carriage
 * return (what a spreadsheet reads as a formula: OWASP's "CSV injection")
 * gets a single quote before it; then quoted (RFC 4180: quotes doubled) when
 * it holds a comma, a quote, a carriage return or a line feed. */
void report_csv_cell(FILE *out, const char *s);

/* `s` as a cell of a markdown table: < > & as the entities &lt; &gt; &amp;
 * (no HTML of a label reaches the page a markdown viewer makes), | \ ` * _
 * [ ] ~ escaped with a backslash (no column break, code, emphasis, link or
 * strike-through), control characters as \xNN. */
void report_md_cell(FILE *out, const char *s);

#endif
