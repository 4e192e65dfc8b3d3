/* The gates themselves, as gate_list.h lists them: each reads what it needs
 * of the project and adds findings to the report; G3 runs the build, the
 * others only read. gate_run runs the selected ones in their phase order. */
#ifndef AUTOTRACE_GATE_RUN_H
#define AUTOTRACE_GATE_RUN_H

#include <stdio.h>

#include "gate.h"
#include "project_model.h"

struct gate_def {
	const char *id;               /* "G1" */
	const char *title;
	const char *help;             /* lines joined by "\n" (gate_list.h) */
	enum gate_phase phase;
	void (*check)(struct project_model *p, struct gate_report *r);
};

#define GATE_CHECK_DECL_(e, check, id, phase, title, help) void check(struct project_model *p, struct gate_report *r);
GATE_LIST(GATE_CHECK_DECL_)
#undef GATE_CHECK_DECL_

const struct gate_def *gate_def(enum gate_id g);

/* The gate named `name` (case ignored), or -1. */
int gate_find(const char *name);

/* "G1, G2, G3, G4, G5": every gate, for messages (static text). */
const char *gate_ids_text(void);

/* Prints every gate's help, "  G1  line\n      line\n", for usage texts. */
void gate_print_help(FILE *out);

/* Every gate, in the order gate_run runs them: phase by phase, in the
 * order of GATE_LIST within a phase. */
void gate_run_order(enum gate_id order[GATE_COUNT]);

/* Runs the checks of the gates whose r->gates[g].run is set, phase by
 * phase (gate_list.h), then settles each gate's status. */
void gate_run(struct project_model *p, struct gate_report *r);

/* Marks gate g (G4, G5) not run: the rules leave the samples out, or the
 * project has none (absent). */
void gate_samples_left_out(const struct project_model *p, struct gate_report *r, enum gate_id g);

/* Where a finding about a layer that is not found points, as a location
 * (none when there is nothing to point at): see project_op_anchor. */
struct gate_loc gate_anchor_loc(const struct project_model *p, enum project_anchor_kind kind);

#endif
