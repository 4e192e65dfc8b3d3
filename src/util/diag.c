/* Printing located diagnostics with the source line and a caret underline. */
#include "diag.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

bool diag_color_auto(FILE *out)
{
	const char *no = getenv("NO_COLOR");

	if (no && *no)
		return false;
	return isatty(fileno(out)) != 0;
}

void diag_init(struct diag *d, FILE *out, bool color)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
	d->color = color;
}

static void drop(void *ctx, const struct diag_msg *m)
{
	(void)ctx;
	(void)m;
}

void diag_init_quiet(struct diag *d)
{
	diag_init(d, stderr, false);
	d->sink = drop;
}

static const char *level_name(enum diag_level level)
{
	switch (level) {
	case DIAG_ERROR:
		return "error";
	case DIAG_WARNING:
		return "warning";
	case DIAG_NOTE:
		return "note";
	}
	return "error";
}

static const char *level_color(enum diag_level level)
{
	switch (level) {
	case DIAG_ERROR:
		return DIAG_C_RED;
	case DIAG_WARNING:
		return DIAG_C_MAGENTA;
	case DIAG_NOTE:
		return DIAG_C_CYAN;
	}
	return DIAG_C_RED;
}

/* Counts the message; the first error's text is kept for a caller that
 * reports a stopped step in one line. False when it is not to be shown: an
 * error past max_errors, and the notes and warnings that follow it (a sink
 * takes every message). */
static bool count(struct diag *d, enum diag_level level, const char *fmt, va_list ap)
{
	if (level == DIAG_ERROR) {
		if (!d->first_error[0]) {
			va_list aq;

			va_copy(aq, ap);
			vsnprintf(d->first_error, sizeof(d->first_error), fmt, aq);
			va_end(aq);
		}
		d->errors++;
		d->muted = d->max_errors && d->errors > d->max_errors;
		d->hidden += d->muted;
	} else if (level == DIAG_WARNING)
		d->warnings++;
	return d->sink || !d->muted;
}

void diag_finish(struct diag *d)
{
	if (d->hidden && !d->sink) {
		fprintf(d->out, "autotrace: note: %u more error%s not shown (the first %u are)\n", d->hidden,
			d->hidden == 1 ? "" : "s", d->max_errors);
		d->hidden = 0;
	}
	fflush(d->out);
}

static void head(struct diag *d, enum diag_level level)
{
	if (d->color)
		fprintf(d->out, "%s%s:%s " DIAG_C_BOLD, level_color(level), level_name(level), DIAG_C_RESET);
	else
		fprintf(d->out, "%s: ", level_name(level));
}

static void tail(struct diag *d, const char *fmt, va_list ap)
{
	char small[512], *text = small;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n >= (int)sizeof(small)) {
		text = xmalloc((size_t)n + 1);
		vsnprintf(text, (size_t)n + 1, fmt, ap);
	}
	if (n > 0)
		diag_put_text(d->out, text, (size_t)n);
	if (text != small)
		free(text);
	fputs(d->color ? DIAG_C_RESET "\n" : "\n", d->out);
}

/* Decodes one UTF-8 sequence starting at s[0]; returns its length (>= 1). */
static size_t utf8_step(const unsigned char *s, size_t left, unsigned *cp)
{
	size_t n = 1;

	*cp = s[0];
	if (s[0] >= 0xF0 && left >= 4) {
		*cp = ((s[0] & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
		n = 4;
	} else if (s[0] >= 0xE0 && left >= 3) {
		*cp = ((s[0] & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
		n = 3;
	} else if (s[0] >= 0xC0 && left >= 2) {
		*cp = ((s[0] & 0x1Fu) << 6) | (s[1] & 0x3Fu);
		n = 2;
	}
	return n;
}

/* Terminal cells taken by a code point: East Asian wide ranges take two. */
/* A control character (but tab) is shown as \xNN: a byte of a label or a
 * source line never drives the terminal (ESC, BEL). */
static bool shown_escaped(unsigned cp)
{
	return (cp < 0x20 && cp != '\t') || cp == 0x7f;
}

static int cell_width(unsigned cp)
{
	if (shown_escaped(cp))
		return 4;
	if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
	    (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
	    (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
	    (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) || (cp >= 0x20000 && cp <= 0x3FFFD))
		return 2;
	return 1;
}

void diag_put_text(FILE *out, const char *text, size_t len)
{
	size_t from = 0;

	for (size_t i = 0; i < len; i++)
		if (shown_escaped((unsigned char)text[i])) {
			fwrite(text + from, 1, i - from, out);
			fprintf(out, "\\x%02x", (unsigned char)text[i]);
			from = i + 1;
		}
	fwrite(text + from, 1, len - from, out);
}

void diag_put_str(FILE *out, const char *text)
{
	diag_put_text(out, text, strlen(text));
}

void diag_put_lines(FILE *out, const char *text, size_t len)
{
	size_t from = 0;

	for (size_t i = 0; i <= len; i++)
		if (i == len || text[i] == '\n') {
			diag_put_text(out, text + from, i - from);
			if (i < len)
				fputc('\n', out);
			from = i + 1;
		}
}

void diag_put_rendered(FILE *out, void (*render)(FILE *f, const void *ctx), const void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		render(out, ctx);
		return;
	}
	render(m, ctx);
	fclose(m);
	diag_put_lines(out, buf, len);
	free(buf);
}

void diag_put_pad(FILE *out, const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;

	for (size_t i = 0; i < len;) {
		unsigned cp;
		i += utf8_step(s + i, len - i, &cp);
		if (cp == '\t')
			fputc('\t', out);
		else
			fprintf(out, "%*s", cell_width(cp), "");
	}
}

/* A file name as the prefix of a message: escaped as the message text is (a
 * name of an untrusted tree may hold ESC, OSC or BEL). */
static void put_path(FILE *out, const char *path)
{
	diag_put_text(out, path, strlen(path));
}

size_t diag_text_cells(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t len = strlen(text), cells = 0;

	for (size_t i = 0; i < len;) {
		unsigned cp;
		i += utf8_step(s + i, len - i, &cp);
		cells += (size_t)cell_width(cp);
	}
	return cells;
}

/* Cells of the character at s[i] (a tab: the most it can take). */
static int cells_at(const unsigned char *s, uint32_t i, uint32_t le, size_t *n)
{
	unsigned cp;

	*n = utf8_step(s + i, le - i, &cp);
	return cp == '\t' ? 8 : cell_width(cp);
}

struct diag_window diag_source_window(const struct src_file *f, uint32_t ls, uint32_t le, uint32_t start)
{
	const unsigned char *s = (const unsigned char *)f->data;
	const int cut = (int)sizeof(DIAG_CUT) - 1;
	struct diag_window w = { ls, le, false, false };
	uint32_t at = start < ls ? ls : start > le ? le : start;
	int room, left = 0;
	size_t n;

	/* the whole line when it fits (counted no further than that) */
	room = DIAG_SOURCE_WIDTH;
	for (uint32_t i = ls; i < le; i += (uint32_t)n)
		if ((room -= cells_at(s, i, le, &n)) < 0)
			break;
	if (room >= 0)
		return w;
	/* a third of the width before the caret, the rest after it */
	w.from = at;
	while (w.from > ls) {
		uint32_t p = w.from - 1;
		int c;
		while (p > ls && (s[p] & 0xC0) == 0x80 && w.from - p < 4)
			p--;
		c = cells_at(s, p, le, &n);
		if (left + c > DIAG_SOURCE_WIDTH / 3 - cut)
			break;
		left += c;
		w.from = p;
	}
	w.cut_left = w.from > ls;
	room = DIAG_SOURCE_WIDTH - left - (w.cut_left ? cut : 0) - cut;
	for (w.to = at; w.to < le; w.to += (uint32_t)n) {
		int c = cells_at(s, w.to, le, &n);
		if (c > room)
			break;
		room -= c;
	}
	w.cut_right = w.to < le;
	return w;
}

static void show_source(struct diag *d, struct src_loc loc)
{
	const struct src_file *f = loc.file;
	size_t line = src_file_line(f, loc.start);
	uint32_t ls = src_file_line_start(f, line);
	size_t llen = src_file_line_length(f, line);
	uint32_t le = ls + (uint32_t)llen;
	uint32_t end = loc.end > loc.start ? loc.end : loc.start + 1;
	const unsigned char *s = (const unsigned char *)f->data;
	struct diag_window win = diag_source_window(f, ls, le, loc.start);
	bool first = true;

	if (win.cut_left)
		fputs(DIAG_CUT, d->out);
	diag_put_text(d->out, f->data + win.from, win.to - win.from);
	if (win.cut_right)
		fputs(DIAG_CUT, d->out);
	fputc('\n', d->out);
	if (win.cut_left)
		fprintf(d->out, "%*s", (int)sizeof(DIAG_CUT) - 1, "");
	le = win.to;
	if (loc.start > win.from)
		diag_put_pad(d->out, f->data + win.from, (loc.start < le ? loc.start : le) - win.from);
	if (d->color)
		fputs(DIAG_C_GREEN, d->out);
	for (uint32_t i = loc.start; first || (i < end && i < le);) {
		unsigned cp = ' ';
		size_t n = 1;
		if (i < le)
			n = utf8_step(s + i, le - i, &cp);
		for (int w = 0; w < cell_width(cp); w++) {
			fputc(first ? '^' : '~', d->out);
			first = false;
		}
		i += (uint32_t)n;
	}
	if (d->color)
		fputs(DIAG_C_RESET, d->out);
	fputc('\n', d->out);
}

/* Formats the message and hands it to the sink. */
static void to_sink(struct diag *d, enum diag_level level, struct src_loc loc, const char *path, size_t line,
		    size_t col, const char *fmt, va_list ap)
{
	struct diag_msg m = { level, loc, path, line, col, NULL };
	va_list aq;
	char small[512], *text = small;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (n >= (int)sizeof(small)) {
		text = malloc((size_t)n + 1);
		if (!text)
			return;
		vsnprintf(text, (size_t)n + 1, fmt, ap);
	}
	m.text = n < 0 ? "" : text;
	d->sink(d->sink_ctx, &m);
	if (text != small)
		free(text);
}

void diag_vat(struct diag *d, enum diag_level level, struct src_loc loc, const char *fmt, va_list ap)
{
	if (!count(d, level, fmt, ap))
		return;
	if (d->sink) {
		to_sink(d, level, loc, loc.file ? loc.file->path : NULL, 0, 0, fmt, ap);
		return;
	}
	if (!loc.file) {
		fputs("autotrace: ", d->out);
		head(d, level);
		tail(d, fmt, ap);
		return;
	}
	if (d->color)
		fputs(DIAG_C_BOLD, d->out);
	put_path(d->out, loc.file->path);
	fprintf(d->out, ":%zu:%zu: ", src_file_line(loc.file, loc.start), src_file_column(loc.file, loc.start));
	if (d->color)
		fputs(DIAG_C_RESET, d->out);
	head(d, level);
	tail(d, fmt, ap);
	show_source(d, loc);
}

void diag_at(struct diag *d, enum diag_level level, struct src_loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(d, level, loc, fmt, ap);
	va_end(ap);
}

/* A message at a path and line (or none: `autotrace: `), without the source. */
static void vpos(struct diag *d, enum diag_level level, const char *path, size_t line, size_t col, const char *fmt,
		 va_list ap)
{
	va_list aq;
	bool shown;

	va_copy(aq, ap);
	shown = count(d, level, fmt, aq);
	va_end(aq);
	if (!shown)
		return;
	if (d->sink) {
		struct src_loc none = { NULL, 0, 0 };
		to_sink(d, level, none, path, line, col, fmt, ap);
		return;
	}
	if (d->color && path)
		fputs(DIAG_C_BOLD, d->out);
	if (!path)
		fputs("autotrace: ", d->out);
	else
		put_path(d->out, path);
	if (path && line == 0)
		fputs(": ", d->out);
	else if (path && col == 0)
		fprintf(d->out, ":%zu: ", line);
	else if (path)
		fprintf(d->out, ":%zu:%zu: ", line, col);
	if (d->color && path)
		fputs(DIAG_C_RESET, d->out);
	head(d, level);
	tail(d, fmt, ap);
}

void diag_pos(struct diag *d, enum diag_level level, const char *path, size_t line, size_t col,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpos(d, level, path, line, col, fmt, ap);
	va_end(ap);
}

void diag_plain(struct diag *d, enum diag_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpos(d, level, NULL, 0, 0, fmt, ap);
	va_end(ap);
}
