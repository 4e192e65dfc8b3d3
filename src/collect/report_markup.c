/* Escapes and number formats of report's pages. See report_markup.h. */
#include "report_markup.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* `s` made valid UTF-8: itself, or a copy in *owned. */
static const char *valid(const char *s, char **owned)
{
	size_t n = strlen(s);

	*owned = NULL;
	if (utf8_invalid_at(s, n) == SIZE_MAX)
		return s;
	*owned = utf8_sanitize(s, n, &n);
	return *owned;
}

void markup_text(struct strbuf *b, const char *s)
{
	char *owned;

	for (const char *p = valid(s, &owned); *p; p++) {
		switch (*p) {
		case '&': strbuf_puts(b, "&amp;"); break;
		case '<': strbuf_puts(b, "&lt;"); break;
		case '>': strbuf_puts(b, "&gt;"); break;
		case '"': strbuf_puts(b, "&quot;"); break;
		case '\'': strbuf_puts(b, "&#39;"); break;
		default:
			if ((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n')
				markup_printf(b, "&#x%x;", 0x2400 + (unsigned char)*p); /* control pictures */
			else
				strbuf_putc(b, *p);
		}
	}
	free(owned);
}

void markup_json_string(struct strbuf *b, const char *s)
{
	char *owned;

	strbuf_putc(b, '"');
	for (const char *p = valid(s, &owned); *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '"' || c == '\\') {
			strbuf_putc(b, '\\');
			strbuf_putc(b, (char)c);
		} else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
			markup_printf(b, "\\u%04x", c);
		} else {
			strbuf_putc(b, (char)c);
		}
	}
	strbuf_putc(b, '"');
	free(owned);
}

void markup_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	char tmp[256];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		strbuf_put(b, tmp, (size_t)n);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(strbuf_room(b, (size_t)n + 1), (size_t)n + 1, fmt, ap);
	va_end(ap);
	strbuf_commit(b, (size_t)n);
}

void markup_duration(struct strbuf *b, uint64_t ns)
{
	if (ns < 1000)
		markup_printf(b, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		markup_printf(b, "%.3g us", (double)ns / 1e3);
	else if (ns < 1000000000)
		markup_printf(b, "%.3g ms", (double)ns / 1e6);
	else
		markup_printf(b, "%.3g s", (double)ns / 1e9);
}
