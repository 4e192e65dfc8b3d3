/* The JUnit XML form of a gate report (`--format junit`): one testsuite, one
 * testcase per gate; a failed gate has a <failure> whose text lists its
 * findings, a skipped gate a <skipped> whose text says why, warnings go to
 * <system-out>. Valid against Jenkins' JUnit schemas (junit-10.xsd of the
 * xUnit plugin, and the older one the tests check it with, which gives
 * <skipped> no attribute): the skip count is an attribute of the testsuite
 * only, never of testsuites. */
#include <string.h>

#include "gate_out.h"

/* XML text or attribute: & < > " escaped, control characters other than
 * tab and newline dropped (XML 1.0 cannot hold them). */
static void xml(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\n': fputc('\n', f); break;
		case '\t': fputc('\t', f); break;
		default:
			if (*p >= 0x20)
				fputc(*p, f);
		}
	}
}

static void finding_text(FILE *f, const struct gate_finding *fd)
{
	char pos[64];

	if (fd->loc.path) {
		xml(f, fd->loc.path);
		if (fd->loc.line) {
			snprintf(pos, sizeof(pos), ":%zu:%zu", fd->loc.line, fd->loc.col);
			fputs(pos, f);
		}
		fputs(": ", f);
	}
	fputs(fd->level == DIAG_ERROR ? "error: [" : "warning: [", f);
	fputs(gate_rule_id(fd->rule), f);
	fputs("] ", f);
	xml(f, fd->message);
	fputc('\n', f);
	if (fd->hint) {
		fputs("    hint: ", f);
		xml(f, fd->hint);
		fputc('\n', f);
	}
	if (fd->fix) {
		fputs("    fix: ", f);
		xml(f, fd->fix);
		fputc('\n', f);
	}
	if (fd->related_message) {
		fputs("    note: ", f);
		xml(f, fd->related_message);
		if (fd->related.path) {
			fputs(" (", f);
			xml(f, fd->related.path);
			snprintf(pos, sizeof(pos), ":%zu:%zu)", fd->related.line, fd->related.col);
			fputs(pos, f);
		}
		fputc('\n', f);
	}
}

int gate_out_junit(FILE *out, FILE *err, bool color, const struct gate_report *r)
{
	unsigned failures = 0, skipped = 0;

	(void)err;
	(void)color;
	for (int g = 0; g < GATE_COUNT; g++) {
		failures += r->gates[g].status == GATE_FAILED;
		skipped += r->gates[g].status == GATE_SKIPPED;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"autotrace gate\" tests=\"%d\" failures=\"%u\" errors=\"0\">\n", GATE_COUNT,
		failures);
	fprintf(out, "  <testsuite name=\"autotrace gate ");
	xml(out, r->opdir);
	fprintf(out, "\" tests=\"%d\" failures=\"%u\" errors=\"0\" skipped=\"%u\">\n", GATE_COUNT, failures, skipped);
	for (int g = 0; g < GATE_COUNT; g++) {
		const struct gate_result *res = &r->gates[g];
		bool warnings = false;
		fprintf(out, "    <testcase classname=\"autotrace.gate\" name=\"%s ", gate_name((enum gate_id)g));
		xml(out, gate_title((enum gate_id)g));
		fputs("\">\n", out);
		if (res->status == GATE_SKIPPED) {
			fputs("      <skipped>", out);
			xml(out, res->note ? res->note : "skipped");
			fputs("</skipped>\n", out);
		} else if (res->status == GATE_FAILED) {
			fputs("      <failure message=\"", out);
			xml(out, gate_counts_text(r, (enum gate_id)g).s);
			fprintf(out, "\" type=\"%s\">", gate_name((enum gate_id)g));
			for (size_t i = 0; i < r->n; i++)
				if (gate_rule_gate(r->v[i].rule) == (enum gate_id)g && r->v[i].level == DIAG_ERROR)
					finding_text(out, &r->v[i]);
			fputs("</failure>\n", out);
		}
		for (size_t i = 0; i < r->n; i++)
			if (gate_rule_gate(r->v[i].rule) == (enum gate_id)g && r->v[i].level != DIAG_ERROR) {
				if (!warnings)
					fputs("      <system-out>", out);
				warnings = true;
				finding_text(out, &r->v[i]);
			}
		if (res->note && res->status != GATE_SKIPPED) {
			if (!warnings)
				fputs("      <system-out>", out);
			warnings = true;
			xml(out, res->note);
			fputc('\n', out);
		}
		if (warnings)
			fputs("</system-out>\n", out);
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
