/* CSV and markdown cells of report's tables. See report_cells.h. */
#include "report_cells.h"

#include <string.h>

#include "diag.h"

void report_csv_cell(FILE *out, const char *s)
{
	bool formula = s[0] && strchr("=+-@\t\r", s[0]);
	bool quoted = strpbrk(s, ",\"\r\n") != NULL;

	if (quoted)
		fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	if (quoted)
		fputc('"', out);
}

void report_md_cell(FILE *out, const char *s)
{
	for (const char *p = s; *p; p++) {
		switch (*p) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '|':
		case '\\':
		case '`':
		case '*':
		case '_':
		case '[':
		case ']':
		case '~':
			fputc('\\', out);
			fputc(*p, out);
			break;
		default: diag_put_text(out, p, 1);
		}
	}
}
