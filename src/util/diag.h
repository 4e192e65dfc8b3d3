/* Diagnostics: `file:line:col: error|warning|note: message`, the source line and
 * a caret under the range, printed to a FILE * so tests can capture them. */
#ifndef AUTOTRACE_DIAG_H
#define AUTOTRACE_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "src_file.h"

enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

/* The terminal colours of diagnostics (when diag_color_auto says so), one
 * set for every writer that prints them (the diag sink, gate's text form). */
#define DIAG_C_BOLD "\033[1m"
#define DIAG_C_RED "\033[1;31m"
#define DIAG_C_MAGENTA "\033[1;35m"
#define DIAG_C_CYAN "\033[1;36m"
#define DIAG_C_GREEN "\033[1;32m"
#define DIAG_C_RESET "\033[0m"

/* One message as handed to a sink: `loc.file` set for diag_at, else `path`
 * (maybe NULL), `line` and `col` as given to diag_pos / diag_plain. */
struct diag_msg {
	enum diag_level level;
	struct src_loc loc;
	const char *path;
	size_t line, col;
	const char *text;
};

struct diag {
	FILE *out;
	bool color;
	unsigned errors;
	unsigned warnings;
	/* The text of the first error since `first_error[0]` was last cleared
	 * (no location): a stopped step's one-line reason. */
	char first_error[256];
	/* When not 0, the errors past the first max_errors (and what follows
	 * each) are counted, not printed; diag_finish says how many. */
	unsigned max_errors;
	unsigned hidden;
	bool muted;
	/* When set, messages go to the sink instead of `out` (still counted): a
	 * command that collects findings (gate) takes them with their locations,
	 * while the file they point into is still alive. */
	void (*sink)(void *ctx, const struct diag_msg *m);
	void *sink_ctx;
};

/* True when `out` is a terminal and NO_COLOR is unset or empty. */
bool diag_color_auto(FILE *out);

void diag_init(struct diag *d, FILE *out, bool color);
/* A diag that counts its messages and prints none (a step asked only for
 * its answer). */
void diag_init_quiet(struct diag *d);

/* The errors a command prints at most (main sets it), as a compiler's
 * -fmax-errors: bad input of any size gives a bounded report. */
#define DIAG_MAX_ERRORS 50
/* The count of the errors not shown, when there were some; then flushes. */
void diag_finish(struct diag *d);

/* A message at a source range; the line and a caret follow. A NULL loc.file
 * prints `autotrace: level: message`. */
void diag_at(struct diag *d, enum diag_level level, struct src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_vat(struct diag *d, enum diag_level level, struct src_loc loc, const char *fmt, va_list ap);

/* A message at a position known only by numbers (binary inputs, JSON, ...):
 * line 0 omits line and column, col 0 omits the column. `path` may be NULL. */
void diag_pos(struct diag *d, enum diag_level level, const char *path, size_t line, size_t col,
	      const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The cells a source line takes at most under a message: a longer one is
 * cut around the range shown, as a compiler does (a line of a megabyte,
 * echoed by each of 50 errors, would be 50 MB of report). */
#define DIAG_SOURCE_WIDTH 160
/* What marks a cut side of a source line. */
#define DIAG_CUT "..."

/* The part of line [ls, le) of `f` shown under a message about [start,
 * end): all of it when it takes DIAG_SOURCE_WIDTH cells or fewer, else a
 * window of about that many cells (markers included) that holds `start` and
 * as much of the range as fits, cut on character boundaries. */
struct diag_window {
	uint32_t from, to;    /* the bytes shown */
	bool cut_left, cut_right;
};
struct diag_window diag_source_window(const struct src_file *f, uint32_t ls, uint32_t le, uint32_t start);

/* Terminal cells `text` (UTF-8) takes: East Asian wide characters count two. */
size_t diag_text_cells(const char *text);
/* Writes len bytes of text with each control character (but tab) as \xNN,
 * as every message and source line is printed: what a file or label holds
 * never reaches the terminal as a control sequence. diag_text_cells counts
 * them so (4 cells). */
void diag_put_text(FILE *out, const char *text, size_t len);
/* The same for a NUL-terminated string. */
void diag_put_str(FILE *out, const char *text);
/* The same, the line ends kept: a report of several lines built from
 * strings of the tree (paths, labels, messages). */
void diag_put_lines(FILE *out, const char *text, size_t len);
/* Renders text by render(f, ctx) into memory, then writes it as
 * diag_put_lines does: a report of several lines that quotes the tree's
 * strings, escaped whole (render straight to out if memory is short). */
void diag_put_rendered(FILE *out, void (*render)(FILE *f, const void *ctx), const void *ctx);
/* The blank cells under len bytes of text as diag_put_text shows them (tabs
 * kept, a wide character two cells, a control character four): what goes
 * before a caret. */
void diag_put_pad(FILE *out, const char *text, size_t len);

/* `autotrace: level: message` with no location. */
void diag_plain(struct diag *d, enum diag_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
