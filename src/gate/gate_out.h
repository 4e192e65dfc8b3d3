/* Output formats of `autotrace gate`, one file each, behind one small table:
 * text (findings as diagnostics on `err`, the per-gate summary on `out`),
 * json, sarif (2.1.0) and junit (XML), all three on `out`. */
#ifndef AUTOTRACE_GATE_OUT_H
#define AUTOTRACE_GATE_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "gate.h"

struct gate_format {
	const char *name;
	/* Returns 0, or -1 when the output cannot be written. */
	int (*write)(FILE *out, FILE *err, bool color, const struct gate_report *r);
};

int gate_out_text(FILE *out, FILE *err, bool color, const struct gate_report *r);
int gate_out_json(FILE *out, FILE *err, bool color, const struct gate_report *r);
int gate_out_sarif(FILE *out, FILE *err, bool color, const struct gate_report *r);
int gate_out_junit(FILE *out, FILE *err, bool color, const struct gate_report *r);

/* The format named `name`, or NULL. */
const struct gate_format *gate_format_find(const char *name);

/* "2 errors, 1 warning" for gate g ("" when none), by value. */
struct gate_counts {
	char s[64];
};
struct gate_counts gate_counts_text(const struct gate_report *r, enum gate_id g);
/* True when no gate failed. */
bool gate_report_passed(const struct gate_report *r);

#endif
