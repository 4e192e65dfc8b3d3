/* The text form of a gate report: each finding as a compiler diagnostic
 * (location, level, [rule] message, the line with a caret, the fix, a
 * related location as a note) on `err`, then one line per gate and the
 * verdict on `out`. */
#include <string.h>

#include "diag.h"
#include "gate_out.h"

static const char *level_name(enum diag_level l)
{
	return l == DIAG_ERROR ? "error" : l == DIAG_WARNING ? "warning" : "note";
}

static const char *level_color(enum diag_level l)
{
	return l == DIAG_ERROR ? DIAG_C_RED : l == DIAG_WARNING ? DIAG_C_MAGENTA : DIAG_C_CYAN;
}

static void where(FILE *f, bool color, const struct gate_loc *l)
{
	if (color)
		fputs(DIAG_C_BOLD, f);
	if (!l->path)
		fputs("autotrace: ", f);
	else if (l->line == 0)
		diag_put_str(f, l->path), fputs(": ", f);
	else
		diag_put_str(f, l->path), fprintf(f, ":%zu:%zu: ", l->line, l->col);
	if (color)
		fputs(DIAG_C_RESET, f);
}

static void caret(FILE *f, bool color, const struct gate_loc *l)
{
	const unsigned char *s = (const unsigned char *)l->src_line;
	size_t at = 0;

	if (!l->src_line)
		return;
	diag_put_str(f, l->src_line);
	fputc('\n', f);
	/* src_col counts characters: the bytes before the one it names */
	for (size_t col = 1; s[at] && col < l->src_col; col++)
		do
			at++;
		while ((s[at] & 0xC0) == 0x80);
	diag_put_pad(f, l->src_line, at);
	if (color)
		fputs(DIAG_C_GREEN, f);
	fputc('^', f);
	for (size_t i = 1; i < l->src_len; i++)
		fputc('~', f);
	if (color)
		fputs(DIAG_C_RESET, f);
	fputc('\n', f);
}

static void head(FILE *f, bool color, enum diag_level lv)
{
	if (color)
		fprintf(f, "%s%s:%s " DIAG_C_BOLD, level_color(lv), level_name(lv), DIAG_C_RESET);
	else
		fprintf(f, "%s: ", level_name(lv));
}

int gate_out_text(FILE *out, FILE *err, bool color, const struct gate_report *r)
{
	for (int g = 0; g < GATE_COUNT; g++)
		for (size_t i = 0; i < r->n; i++) {
			const struct gate_finding *fd = &r->v[i];
			if (gate_rule_gate(fd->rule) != (enum gate_id)g)
				continue;
			where(err, color, &fd->loc);
			head(err, color, fd->level);
			fprintf(err, "[%s] ", gate_rule_id(fd->rule));
			diag_put_lines(err, fd->message, strlen(fd->message));
			fprintf(err, "%s\n", color ? DIAG_C_RESET : "");
			caret(err, color, &fd->loc);
			if (fd->hint)
				fputs("    hint: ", err), diag_put_lines(err, fd->hint, strlen(fd->hint)), fputc('\n', err);
			if (fd->fix)
				fputs("    fix: ", err), diag_put_lines(err, fd->fix, strlen(fd->fix)), fputc('\n', err);
			if (fd->related_message) {
				where(err, color, &fd->related);
				head(err, color, DIAG_NOTE);
				diag_put_lines(err, fd->related_message, strlen(fd->related_message));
				fprintf(err, "%s\n", color ? DIAG_C_RESET : "");
				caret(err, color, &fd->related);
			}
		}
	for (int g = 0; g < GATE_COUNT; g++) {
		const struct gate_result *res = &r->gates[g];
		struct gate_counts counts = gate_counts_text(r, (enum gate_id)g);
		fprintf(out, "%s %s: %s", gate_name((enum gate_id)g), gate_status_name(res->status),
			gate_title((enum gate_id)g));
		if (counts.s[0])
			fprintf(out, " (%s)", counts.s);
		if (res->note)
			fputs("; ", out), diag_put_lines(out, res->note, strlen(res->note));
		fputc('\n', out);
	}
	{
		bool first = true, any = false;
		for (int g = 0; g < GATE_COUNT; g++)
			any = any || r->gates[g].status != GATE_SKIPPED;
		/* every gate skipped (not selected, or its layer absent): nothing passed */
		fputs(!gate_report_passed(r) ? "gate: FAILED" : any ? "gate: passed" : "gate: nothing checked", out);
		for (int g = 0; g < GATE_COUNT; g++)
			if (r->gates[g].status == GATE_FAILED) {
				fprintf(out, "%s%s", first ? " (" : ", ", gate_name((enum gate_id)g));
				first = false;
			}
		for (int g = 0; g < GATE_COUNT; g++)
			if (r->gates[g].status == GATE_SKIPPED) {
				fprintf(out, "%s%s skipped", first ? " (" : ", ", gate_name((enum gate_id)g));
				first = false;
			}
		fputs(first ? "\n" : ")\n", out);
	}
	fflush(err);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
